/**
 * Whether one role has more authority than another (ARCHITECTURE.md: an agent can never raise its own
 * privileges silently). A switch that raises authority takes effect only when the user confirms it
 * in VS Code or at an interactive terminal; a switch that lowers it (or keeps it) needs no one.
 */
import * as path from 'node:path';
import { rolePermits } from './gate';
import { KNOWN_TOOLS } from '../vocabulary/categories';
import type { ActiveRoleOrigin } from '../roles/active';
import type { McpAction, NetworkRules, Role } from '../roles/types';

/** Tools no table lists, one per kind of name, so patterns such as `mcp_*` or `*` are compared too. */
const PROBES = ['mcp_github_create_issue', 'mcp__github__create_issue', 'github-create_issue', 'some_unknown_tool'];
const SHELL_RANK: Readonly<Record<Role['shellPolicy'], number>> = { deny: 0, compress: 1, track: 1 };
/** Less sandbox, more authority: `off` lets shell commands write protected paths the parser cannot see, `required` the home. */
const SANDBOX_RANK: Readonly<Record<Role['sandbox'], number>> = { strict: 0, required: 1, auto: 2, off: 3 };
/** Fewer questions, more authority: `allow` runs an unaudited server's tools without the user. */
const MCP_RANK: Readonly<Record<McpAction, number>> = { deny: 0, ask: 1, allow: 2 };

/** In what ways `next` can do more than `current`; empty when it cannot. */
export function moreAuthority(next: Role, current: Role): string[] {
  const more: string[] = [];
  const limit = (label: string, a: number, b: number): void => {
    if (a > b) more.push(`${label} ${b} → ${a}`);
  };
  limit('context tokens', next.limits.maxContextTokens, current.limits.maxContextTokens);
  limit('shell calls', next.limits.maxShellInvocations, current.limits.maxShellInvocations);
  limit('cost limit $', next.limits.maxCostUsd, current.limits.maxCostUsd);
  limit('block at %', next.limits.blockAtPercent, current.limits.blockAtPercent);
  if (SHELL_RANK[next.shellPolicy] > SHELL_RANK[current.shellPolicy]) more.push(`shell ${current.shellPolicy} → ${next.shellPolicy}`);
  if (SANDBOX_RANK[next.sandbox] > SANDBOX_RANK[current.sandbox]) more.push(`sandbox ${current.sandbox} → ${next.sandbox}`);
  if (current.failClosed && !next.failClosed) more.push('fails open instead of closed');
  for (const key of ['unaudited', 'dead'] as const) {
    const from = current.mcp?.[key] ?? 'allow';
    const to = next.mcp?.[key] ?? 'allow';
    if (MCP_RANK[to] > MCP_RANK[from]) more.push(`${key} MCP servers ${from} → ${to}`);
  }
  // Compared normalised: `~/notes/../.ssh` is not under `~/notes`.
  const under = (p: string, c: string) => p === c || p.startsWith(`${c.replace(/\/+$/, '')}/`);
  const held = (current.allowWrite ?? []).map((c) => path.normalize(c));
  const writes = (next.allowWrite ?? []).filter((p) => !held.some((c) => under(path.normalize(p), c)));
  if (writes.length > 0) more.push(`sandboxed commands write ${writes.join(', ')}`);
  const reach = moreNetwork(next.network, current.network);
  if (reach) more.push(reach);
  const unasked = (current.tools.ask ?? []).filter((entry) => !(next.tools.ask ?? []).includes(entry));
  if (unasked.length > 0) more.push(`no longer asks for ${unasked.join(', ')}`);
  const gained = [...KNOWN_TOOLS.keys(), ...PROBES].filter((t) => rolePermits(next, t) && !rolePermits(current, t));
  if (gained.length > 0) more.push(`tools ${gained.slice(0, 5).join(', ')}${gained.length > 5 ? ` and ${gained.length - 5} more` : ''}`);
  return more;
}

/**
 * Whether `next`'s network reaches a name `current`'s does not: rules absent mean the network as it is
 * (every name). Names are compared as written, so a narrower pattern under a wider one still counts
 * as more (asking once too often, never once too few).
 */
function moreNetwork(next: NetworkRules | undefined, current: NetworkRules | undefined): string | undefined {
  if (!current || (current.allow.includes('*') && current.deny.length === 0)) return undefined;
  if (!next || (next.allow.includes('*') && !current.allow.includes('*'))) return 'network reaches every name';
  const gained = current.allow.includes('*') ? [] : next.allow.filter((name) => !current.allow.includes(name));
  if (gained.length > 0) return `network reaches ${gained.slice(0, 5).join(', ')}${gained.length > 5 ? ` and ${gained.length - 5} more` : ''}`;
  // A denied name matters only where some name is allowed.
  const undenied = next.allow.length === 0 ? [] : current.deny.filter((name) => !next.deny.includes(name));
  return undenied.length > 0 ? `network no longer denies ${undenied.join(', ')}` : undefined;
}

/**
 * The active role once the workspace's own `alfred.role` (the repository's settings, which an agent
 * may have written) is heard: it replaces the user's setting (or the default) only when it raises no
 * authority; a runtime switch or an environment variable is never overridden by it.
 */
export function withWorkspaceRole<T extends { role: Role; from: ActiveRoleOrigin; problem?: string }>(user: T, workspace: (() => T) | undefined): T {
  if (!workspace || user.from !== 'setting' && user.from !== 'default') return user;
  const withWorkspace = workspace();
  if (withWorkspace.problem) return withWorkspace;
  const more = moreAuthority(withWorkspace.role, user.role);
  if (more.length === 0) return withWorkspace;
  return {
    ...user,
    problem: `The workspace's settings ask for role ${withWorkspace.role.name}, which has more authority than ${user.role.name} (${more.join('; ')}). `
      + `Settings from the repository never raise authority: switch to ${withWorkspace.role.name} yourself (Alfred: Switch Role) if you want it.`,
  };
}
