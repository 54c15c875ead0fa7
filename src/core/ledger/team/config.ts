/**
 * `.alfred/team.toml`: the team's budgets and what each role does when the team ledger cannot be
 * reached. It lives in the repository (a governance file: agents cannot edit `.alfred/`), so every
 * developer of the team reads the same budgets.
 *
 *   team = "platform"
 *   [[budget]]
 *   name = "reviewers"            # unique; [A-Za-z0-9_-]
 *   period = "month"              # day | week | month (UTC)
 *   role = "reviewer"             # optional filters: a charge counts when all that are given match
 *   repository = "github.com/acme/app"
 *   user = "ana@acme.dev"
 *   tag = "ci"
 *   max_cost_usd = 200            # at least one of max_context_tokens, max_shell_invocations, max_cost_usd
 *   [offline]
 *   default = "fail-closed"       # fail-closed | local
 *   reviewer = "local"
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'smol-toml';
import { PERIODS, type Period } from './period';

export const TEAM_FILE = path.join('.alfred', 'team.toml');

export type OfflineMode = 'fail-closed' | 'local';

export interface TeamBudget {
  name: string;
  period: Period;
  match: { role?: string; repository?: string; user?: string; tag?: string };
  limits: { tokens?: number; shell?: number; costUsd?: number };
  warnAtPercent: number;
  blockAtPercent: number;
}

export interface TeamConfig {
  team: string;
  budgets: TeamBudget[];
  /** Per role name, and `default` for the rest. */
  offline: Record<string, OfflineMode>;
  /** What was wrong with the file; a broken budget is left out, never guessed. */
  problems: string[];
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;
const LIMITS = { max_context_tokens: 'tokens', max_shell_invocations: 'shell', max_cost_usd: 'costUsd' } as const;
const BUDGET_KEYS = new Set(['name', 'period', 'role', 'repository', 'user', 'tag', 'warn_at_percent', 'block_at_percent', ...Object.keys(LIMITS)]);

export function offlineModeOf(config: TeamConfig, role: string): OfflineMode {
  return config.offline[role] ?? config.offline.default ?? 'fail-closed';
}

function budgetOf(raw: unknown, at: string, seen: Set<string>, problems: string[]): TeamBudget | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push(`${at}: not a table`);
    return undefined;
  }
  const b = raw as Record<string, unknown>;
  const bad = (why: string): undefined => void problems.push(`${at}: ${why}`);
  for (const k of Object.keys(b)) if (!BUDGET_KEYS.has(k)) return bad(`unknown key ${k}`);
  if (typeof b.name !== 'string' || !NAME.test(b.name)) return bad('name must be 1-64 of A-Z a-z 0-9 _ -');
  if (seen.has(b.name)) return bad(`a second budget named ${b.name}`);
  if (!PERIODS.includes(b.period as Period)) return bad(`${b.name}: period must be day, week or month`);
  const match: TeamBudget['match'] = {};
  for (const k of ['role', 'repository', 'user', 'tag'] as const) {
    if (b[k] === undefined) continue;
    if (typeof b[k] !== 'string' || !b[k]) return bad(`${b.name}: ${k} must be a non-empty string`);
    match[k] = b[k];
  }
  const limits: TeamBudget['limits'] = {};
  for (const [key, field] of Object.entries(LIMITS)) {
    const v = b[key];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return bad(`${b.name}: ${key} must be a number ≥ 0`);
    limits[field] = v;
  }
  if (Object.keys(limits).length === 0) return bad(`${b.name}: no limit (max_context_tokens, max_shell_invocations or max_cost_usd)`);
  const pct = (k: string, d: number): number | undefined => {
    const v = b[k] ?? d;
    return typeof v === 'number' && v > 0 && v <= 1000 ? v : undefined;
  };
  const warnAtPercent = pct('warn_at_percent', 80);
  const blockAtPercent = pct('block_at_percent', 100);
  if (warnAtPercent === undefined || blockAtPercent === undefined) return bad(`${b.name}: warn_at_percent and block_at_percent must be numbers in 1..1000`);
  seen.add(b.name);
  return { name: b.name, period: b.period as Period, match, limits, warnAtPercent, blockAtPercent };
}

export function parseTeamConfig(text: string, file = TEAM_FILE): TeamConfig {
  const problems: string[] = [];
  let doc: Record<string, unknown>;
  try {
    doc = parse(text) as Record<string, unknown>;
  } catch (err) {
    return { team: 'default', budgets: [], offline: {}, problems: [`${file}: ${(err as Error).message}`] };
  }
  const team = typeof doc.team === 'string' && NAME.test(doc.team) ? doc.team : 'default';
  if (doc.team !== undefined && team !== doc.team) problems.push(`${file}: team must be 1-64 of A-Z a-z 0-9 _ -`);
  const seen = new Set<string>();
  const list = Array.isArray(doc.budget) ? doc.budget : doc.budget === undefined ? [] : [doc.budget];
  const budgets = list.map((b, i) => budgetOf(b, `${file} budget ${i + 1}`, seen, problems)).filter((b): b is TeamBudget => b !== undefined);
  const offline: Record<string, OfflineMode> = {};
  const o = doc.offline;
  if (o !== undefined && (typeof o !== 'object' || o === null || Array.isArray(o))) problems.push(`${file}: [offline] must be a table`);
  else for (const [role, mode] of Object.entries((o ?? {}) as Record<string, unknown>)) {
    if (mode === 'fail-closed' || mode === 'local') offline[role] = mode;
    else problems.push(`${file}: offline.${role} must be "fail-closed" or "local"`);
  }
  return { team, budgets, offline, problems };
}

/** The workspace's team file; undefined when it has none. */
export function readTeamConfig(workspaceFolder: string): TeamConfig | undefined {
  const file = path.join(workspaceFolder, TEAM_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return parseTeamConfig(text, file);
}
