/**
 * Which MCP server a tool belongs to, from its name alone: VS Code names a tool `mcp_<server>_<tool>`
 * (the label lower-cased, other characters → `_`), Claude Code `mcp__<server>__<tool>`, the Copilot
 * CLI `<server>-<tool>`. A separator may also sit inside a server's or a tool's name, so a name has
 * several readings (`mcp_git_hub_push`: server `git`, tool `hub_push`, or server `git_hub`, tool
 * `push`); rules read them all, and the servers the audit knows settle which readings are real.
 */
import { baseToolName } from './categories';

/** `@mcp:<server>`: every tool of that server, whatever the agent calls it. */
export const SERVER_PATTERN_PREFIX = '@mcp:';
const SERVER_PATTERN = /^@mcp:(\S+)$/i;

/** A server name as the agents' tool names spell it: lower case, anything but a letter or digit → `_`. */
export function normalizeServer(name: string): string {
  return name.trim().toLowerCase().replace(/[^a-z0-9]/g, '_');
}

export function isServerPattern(pattern: string): boolean {
  return SERVER_PATTERN.test(pattern);
}

/** The normalised server of an `@mcp:<server>` pattern, or undefined when it is not one. */
export function serverOfPattern(pattern: string): string | undefined {
  const m = SERVER_PATTERN.exec(pattern);
  return m ? normalizeServer(m[1] as string) : undefined;
}

/** Claude Code's resource tools name their server in the input, not in the tool name. */
const RESOURCE_TOOLS = new Set(['ListMcpResourcesTool', 'ReadMcpResourceTool']);

/** Every server a tool name may belong to, normalised, without duplicates; empty for a tool no server owns. */
export function serverReadings(name: string, input?: unknown): string[] {
  const base = baseToolName(name.trim());
  const found = new Set<string>();
  if (RESOURCE_TOOLS.has(base)) {
    const server = input !== null && typeof input === 'object' ? (input as Record<string, unknown>).server : undefined;
    if (typeof server === 'string' && server.trim() !== '') found.add(normalizeServer(server));
    return [...found];
  }
  if (base.startsWith('mcp__')) splits(base.slice(5), '__').forEach((s) => found.add(s));
  if (base.startsWith('mcp_')) splits(base.slice(4), '_').forEach((s) => found.add(s));
  else if (/^[^-\s]+-\S+$/.test(base)) splits(base, '-').forEach((s) => found.add(s));
  found.delete('');
  return [...found];
}

/** The server part of each way `rest` splits at `sep` into a non-empty server and a non-empty tool. */
function splits(rest: string, sep: string): string[] {
  const out: string[] = [];
  for (let at = rest.indexOf(sep, 1); at > 0; at = rest.indexOf(sep, at + 1)) {
    if (at + sep.length < rest.length) out.push(normalizeServer(rest.slice(0, at)));
  }
  return out;
}

/**
 * The readings that name a server the audit knows, when any does; otherwise every reading (a server
 * configured since the last audit is not known yet, and must not slip through because of it).
 */
export function knownReadings(readings: readonly string[], known: ReadonlySet<string> | undefined): string[] {
  if (!known || known.size === 0) return [...readings];
  const hits = readings.filter((r) => known.has(r));
  return hits.length > 0 ? hits : [...readings];
}

/**
 * Whether `@mcp:<server>` matches a tool. In `denied`, any reading is enough (an ambiguous name is
 * refused rather than let through). In `allowed`, every reading that names a known server must be
 * that server: a tool `hub_push` of an untrusted server `git` (`mcp_git_hub_push`) does not pass as a
 * tool of the allowed `git_hub`.
 */
export function serverMatches(server: string, readings: readonly string[], mode: 'allow' | 'deny', known?: ReadonlySet<string>): boolean {
  if (!readings.includes(server)) return false;
  if (mode === 'deny') return true;
  const hits = known ? readings.filter((r) => known.has(r)) : [];
  return hits.every((r) => r === server);
}
