/**
 * Alfred's doctor: every configured provider probed at once (reachable, key present, models listed,
 * latency; a one-token completion when asked) and Alfred's own health (roles with problems, governance
 * in force, the hook server, the sandbox, the state folder, where the ledger is kept). It needs no
 * language model, so the palette command and `alfred doctor` answer on a machine that has none.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { AgentHealth } from '../integrations/health/health';
import { issueEnglish } from '../integrations/health/issueText';
import { clientVersionEnglish, type ClientVersion } from '../protect/clientVersions';
import type { Harness } from '../harness/harness';
import { hookSocketPath } from '../integrations/hooks/serverProtocol';
import { alfredHome } from '../base/state/paths';
import type { ProviderConfig } from '../models/providers/types';
import type { SandboxStatus } from '../sandbox/status';
import type { LedgerBackend } from '../ledger/ledgerBackend';
import type { TeamLedger } from '../ledger/team/teamLedger';
import { vscodeSandboxCheck } from './vscodeSandboxCheck';
import type { CheckState, DoctorCheck } from './check';
// Its callers (the CLI, the editor's provider checks) take a check's type with the report.
export type { CheckState, DoctorCheck } from './check';
import { mcpCheck } from './mcp';
import { sha256Hex } from '../base/crypto/sha256';

export interface DoctorReport {
  providers: DoctorCheck[];
  alfred: DoctorCheck[];
}

export interface ProviderProbeDeps {
  /** The key, or why there is none (never the key in the reason). `undefined` key with ok: the provider needs none. */
  key: (provider: ProviderConfig) => Promise<{ ok: true; key: string | undefined } | { ok: false; reason: string }>;
  list: (provider: ProviderConfig, key: string | undefined, signal: AbortSignal) => Promise<Array<{ id: string }>>;
  /** A one-token completion, when the user asked for it. */
  complete?: (provider: ProviderConfig, key: string | undefined, model: string, signal: AbortSignal) => Promise<void>;
}

/** Each provider in parallel, each within `timeoutMs`; a failure of one never hides the others. */
export function probeProviders(providers: readonly ProviderConfig[], deps: ProviderProbeDeps, timeoutMs = 5_000): Promise<DoctorCheck[]> {
  return Promise.all(providers.map(async (provider): Promise<DoctorCheck> => {
    const key = await deps.key(provider);
    if (!key.ok) return { name: provider.name, state: 'fail', detail: `no key: ${key.reason}` };
    const started = Date.now();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const abort = controller.signal;
    try {
      const listed = await deps.list(provider, key.key, abort);
      const configured = provider.models === 'list' ? undefined : provider.models.map((m) => m.id);
      const missing = configured?.filter((id) => !listed.some((m) => m.id === id)) ?? [];
      if (deps.complete) {
        const model = configured?.[0] ?? listed[0]?.id;
        if (model) await deps.complete(provider, key.key, model, abort);
      }
      const ms = Date.now() - started;
      const models = configured ? `${configured.length} configured` : `${listed.length} listed`;
      if (missing.length > 0) return { name: provider.name, state: 'warn', detail: `${provider.baseUrl}: reachable, ${models}, not listed by the endpoint: ${missing.join(', ')}`, ms };
      return { name: provider.name, state: 'ok', detail: `${provider.baseUrl}: reachable, ${models}${deps.complete ? ', a one-token completion answered' : ''}`, ms };
    } catch (err) {
      return { name: provider.name, state: 'fail', detail: `${provider.baseUrl}: ${(err as Error).message}`, ms: Date.now() - started };
    } finally {
      clearTimeout(timer);
    }
  }));
}

export interface AlfredHealthInput {
  harness: Harness;
  governance: readonly AgentHealth[];
  /** The terminal agents installed and their versions (protect/clientVersions.ts), when asked. */
  clients?: readonly ClientVersion[];
  /** The hook server's socket, to try. */
  hookSocket: string;
}

export async function alfredChecks(input: AlfredHealthInput): Promise<DoctorCheck[]> {
  const { harness } = input;
  const checks: DoctorCheck[] = [];
  const problems = harness.problems();
  checks.push(problems.length === 0
    ? { name: 'roles', state: 'ok', detail: `active role ${harness.activeRole().role.name}; every role file loads` }
    : { name: 'roles', state: 'warn', detail: problems.slice(0, 5).map((p) => `${p.path}: ${p.key ? `${p.key}: ` : ''}${p.message}`).join('; ') + (problems.length > 5 ? `; and ${problems.length - 5} more` : '') });
  for (const row of input.governance) {
    checks.push({ name: `governance: ${row.label}`, state: row.state === 'governed' ? 'ok' : row.state === 'not-in-force' ? 'fail' : 'warn', detail: row.state === 'governed' ? `hooks in ${row.hookFile} are in force` : row.state === 'not-in-force' ? `${row.hookFile} is written but not in force: ${row.reasons.map(issueEnglish).join('; ')}` : `not governed (no Alfred hooks in ${row.hookFile})` });
  }
  for (const c of input.clients ?? []) {
    if (c.verdict === 'not-installed') continue;
    checks.push({ name: `client: ${c.label}`, state: c.verdict === 'same-or-older' ? 'ok' : 'warn', detail: clientVersionEnglish(c) });
  }
  checks.push(await socketAnswers(input.hookSocket)
    ? { name: 'hook server', state: 'ok', detail: 'a window (or alfred serve) answers hooks without starting Node' }
    // A hook call that finds none starts one (src/cli/serverStart.ts): only that call runs the command line.
    : { name: 'hook server', state: 'ok', detail: 'none running now: the next hook call starts one (slower for that call, same answers)' });
  checks.push(sandboxCheck(harness.sandboxStatus()));
  checks.push(vscodeSandboxCheck(harness.vscodeSandbox()));
  checks.push(stateWritable(harness.stateDir));
  checks.push(await ledgerCheck(harness.ledgerBackend, harness.stateDir));
  const team = await teamCheck(harness.team, harness.teamProblem, harness.activeRole().role.name);
  if (team) checks.push(team);
  checks.push(mcpCheck(harness.stateDir));
  return checks;
}

/** Where the personal ledger is kept, and whether it can be reached. */
export async function ledgerCheck(backend: LedgerBackend | undefined, stateDir: string): Promise<DoctorCheck> {
  if (!backend) return { name: 'ledger', state: 'ok', detail: `in the state folder's files (${stateDir})` };
  const problem = await backend.problem();
  if (!problem) return { name: 'ledger', state: 'ok', detail: `${backend.where}: reachable` };
  return problem.misconfigured
    ? { name: 'ledger', state: 'fail', detail: `${problem.reason}: every call is refused until it is fixed` }
    : { name: 'ledger', state: 'warn', detail: `${backend.where}: cannot be reached (${problem.reason}); calls run on the state folder's copy as the roles' offline modes say, and are sent once it is back` };
}

/** The team ledger, when the user opted in: reachable, and the team budgets the active role falls under. */
export async function teamCheck(team: TeamLedger | undefined, misconfigured: string | undefined, role: string): Promise<DoctorCheck | undefined> {
  if (misconfigured !== undefined) return { name: 'team ledger', state: 'fail', detail: `${misconfigured}: every call is refused until it is fixed` };
  if (!team) return undefined;
  const budgets = team.budgetNames(role);
  const applies = budgets.length > 0 ? `team budgets for role ${role}: ${budgets.join(', ')}` : `no team budget for role ${role}`;
  const problem = await team.problem();
  return problem === undefined
    ? { name: 'team ledger', state: 'ok', detail: `team ${team.team}: reachable; ${applies}` }
    : { name: 'team ledger', state: 'warn', detail: `team ${team.team}: cannot be reached (${problem}); ${applies}` };
}

/** What the sandbox's network is, for the sandbox check: reachable names through Alfred's proxy, or as it is. */
function networkText(network: SandboxStatus['network']): string {
  if (!network) return '';
  if (network.kind === 'open') return `; network as it is (${network.why})`;
  const { allow, deny } = network.rules;
  const reach = allow.length === 0 ? 'no network name' : allow.includes('*') ? 'every name' : allow.join(', ');
  return `; network only through Alfred's proxy: ${reach}${deny.length ? `, never ${deny.join(', ')}` : ''}`;
}

export function sandboxCheck(sandbox: SandboxStatus): DoctorCheck {
  switch (sandbox.state) {
    case 'kernel': return {
      name: 'sandbox', state: 'ok',
      detail: `shell commands run in ${sandbox.kind ?? 'the kernel sandbox'}${sandbox.kind === 'bwrap'
        ? `: they write only the workspace and their own copies of the temporary folders and the download caches${sandbox.allowWrite?.length ? `, and ${sandbox.allowWrite.join(', ')}` : ''}`
          + `${sandbox.mode === 'strict' ? `; strict${sandbox.noUnixSockets ? ': they open no Unix socket' : ''}` : ''}`
        : `: they write only the workspace, the temporary folders and the download caches${sandbox.allowWrite?.length ? `, and ${sandbox.allowWrite.join(', ')}` : ''}`}`
        + `${networkText(sandbox.network)}`,
    };
    case 'off': return { name: 'sandbox', state: 'warn', detail: `off for role ${sandbox.role}` };
    case 'refused': return { name: 'sandbox', state: 'fail', detail: `${sandbox.kind ? 'not usable' : 'none'} here (${sandbox.why ?? 'unknown'}): shell calls are refused` };
    default: return { name: 'sandbox', state: 'warn', detail: `none here (${sandbox.why ?? 'unknown'}): protected paths are guarded by parsing only` };
  }
}

function stateWritable(dir: string): DoctorCheck {
  const probe = path.join(dir, `.doctor-${process.pid}.tmp`);
  try {
    fs.writeFileSync(probe, 'ok', { mode: 0o600 });
    fs.rmSync(probe);
    return { name: 'state folder', state: 'ok', detail: `${dir} is writable` };
  } catch (err) {
    return { name: 'state folder', state: 'fail', detail: `${dir}: ${(err as Error).message}` };
  }
}

function socketAnswers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const client = net.connect(socket);
    const done = (ok: boolean) => {
      client.destroy();
      resolve(ok);
    };
    client.once('connect', () => done(true));
    client.once('error', () => done(false));
    client.setTimeout(1_000, () => done(false));
  });
}

const MARK: Record<CheckState, string> = { ok: '✓', warn: '!', fail: '✗' };

export function doctorText(report: DoctorReport): string {
  const line = (c: DoctorCheck) => `  ${MARK[c.state]} ${c.name}: ${c.detail}${c.ms !== undefined ? ` (${c.ms} ms)` : ''}`;
  const providers = report.providers.length > 0 ? report.providers.map(line)
    : ['  ! no provider configured: add one to alfred.providers (an OpenAI-compatible or Anthropic endpoint, its key as $VAR or secret:NAME)'];
  return ['Providers', ...providers, '', 'Alfred', ...report.alfred.map(line)].join('\n');
}

/** The resident hook server's socket (serverProtocol.ts), where the server puts it. */
export function hookSocketFor(env: NodeJS.ProcessEnv = process.env): string {
  return hookSocketPath(alfredHome(env), process.platform, sha256Hex);
}
