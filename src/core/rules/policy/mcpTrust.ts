/**
 * A role's `[mcp]` rules against the latest MCP audit: the tools of a server the audit could not
 * vouch for (`unaudited`) or whose package looks abandoned (`dead`) are allowed, asked about, or
 * refused, as the role says. Advisory (`allow`) unless the role asks for more.
 */
import type { McpAudit, McpPackageRef } from '../mcp/types';
import type { McpAction, McpRules } from '../roles/types';
import { knownReadings, normalizeServer, serverReadings } from '../vocabulary/mcpServer';

/** What the audit says about one server, normalised by name. */
export interface McpServerTrust {
  /** Why it counts as unaudited, when it does. */
  unaudited?: string;
  /** Why it counts as dead, when it does. */
  dead?: string;
}

export interface McpTrust {
  /** Every server the audit lists, normalised (they settle ambiguous tool names). */
  known: ReadonlySet<string>;
  servers: ReadonlyMap<string, McpServerTrust>;
}

export const NO_AUDIT: McpTrust = { known: new Set(), servers: new Map() };

export const DEFAULT_MCP_RULES: McpRules = { unaudited: 'allow', dead: 'allow' };

/** A package as its launcher names it: `pkg@1.2.3`, `pkg@latest`, `image:tag`, `image@sha256:…`. */
export function packageLabel(ref: McpPackageRef): string {
  if (ref.spec === ref.name) return ref.spec; // not a registry name: the argument as written
  if (ref.ecosystem === 'docker' && !ref.pinned) return `${ref.name}:${ref.spec}`;
  return `${ref.name}@${ref.spec}`;
}

function trustOf(audit: McpAudit): McpServerTrust {
  const out: McpServerTrust = {};
  if (audit.status === 'not-audited') out.unaudited = `its package could not be audited (${audit.reason ?? 'the registry did not answer'})`;
  else if (audit.status === 'not-checked') out.unaudited = `it was not audited (${audit.reason ?? 'not an npm package'})`;
  else if (!audit.inUseIsAudited) {
    out.unaudited = `the version it runs may not be the audited ${audit.auditedVersion ?? 'one'} (${audit.server.package ? packageLabel(audit.server.package) : 'unpinned'}; pin it to the audited version)`;
  }
  const { curation } = audit;
  if (curation.verdict === 'dead') {
    const facts = [
      curation.weeklyDownloads !== undefined ? `${curation.weeklyDownloads} downloads a week` : undefined,
      curation.lastPublish ? `last published ${curation.lastPublish.slice(0, 10)}` : undefined,
    ].filter((f) => f !== undefined);
    out.dead = `its package looks unmaintained${facts.length > 0 ? ` (${facts.join(', ')})` : ''}`;
  }
  return out;
}

/** The trust index of an audit's results; a server listed twice keeps the worse of its entries. */
export function trustFromAudits(audits: readonly McpAudit[]): McpTrust {
  const servers = new Map<string, McpServerTrust>();
  for (const audit of audits) {
    const name = normalizeServer(audit.server.name);
    const seen = servers.get(name);
    const next = trustOf(audit);
    servers.set(name, seen ? { unaudited: seen.unaudited ?? next.unaudited, dead: seen.dead ?? next.dead } : next);
  }
  return { known: new Set(servers.keys()), servers };
}

const RANK: Readonly<Record<McpAction, number>> = { allow: 0, ask: 1, deny: 2 };

export interface McpVerdict {
  action: 'ask' | 'deny';
  /** The server (normalised) the rule is about. */
  server: string;
  /** What the rule says, for the user and the model. */
  reason: string;
}

/**
 * What the role's `[mcp]` rules make of one MCP-category call, or undefined when they let it through.
 * Every reading of an ambiguous name is judged and the strictest wins; a server the audit does not
 * list is unaudited.
 */
export function mcpVerdict(rules: McpRules | undefined, roleName: string, tool: { name: string; input?: unknown }, trust: McpTrust): McpVerdict | undefined {
  if (!rules || (rules.unaudited === 'allow' && rules.dead === 'allow')) return undefined;
  const readings = serverReadings(tool.name, tool.input);
  const candidates = readings.length > 0 ? knownReadings(readings, trust.known) : [''];
  let worst: McpVerdict | undefined;
  for (const server of candidates) {
    const t = trust.servers.get(server) ?? {
      unaudited: server ? 'it is not in Alfred\'s latest MCP audit' : 'Alfred cannot tell which MCP server it belongs to',
    };
    for (const key of ['unaudited', 'dead'] as const) {
      const why = t[key];
      const action = rules[key];
      if (!why || action === 'allow' || (worst && RANK[worst.action] >= RANK[action])) continue;
      const who = server ? `MCP server "${server}"` : 'an MCP server';
      const reason = action === 'deny'
        ? `Tool ${tool.name} belongs to ${who}: ${why}. Role ${roleName} refuses the tools of ${key} MCP servers ([mcp] ${key} = "deny"). Ask the user to audit and pin the server, or to switch role.`
        : `Tool ${tool.name} belongs to ${who}: ${why}. Role ${roleName} asks the user before the tools of ${key} MCP servers run ([mcp] ${key} = "ask").`;
      worst = { action, server, reason };
    }
  }
  return worst;
}
