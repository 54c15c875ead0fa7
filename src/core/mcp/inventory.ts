/**
 * Every MCP server configured for a workspace and its user: `.vscode/mcp.json`, the user's `mcp.json`
 * (VS Code's format, JSON with comments: `servers` of `command`/`args` or `type`/`url`, and `inputs`)
 * and servers given in settings. A problem names the file and the key; one broken file or server
 * does not hide the others.
 */
import * as path from 'node:path';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { readIfExists } from '../fs/readIfExists';
import { packageOfLaunch } from './launchers';
import type { McpInventory, McpServerEntry, McpSource } from './types';

export interface McpInventoryOptions {
  /** Reads `<folder>/.vscode/mcp.json` when given. */
  workspaceFolder?: string;
  /** The user's `mcp.json` files (VS Code's user folder, per profile); the caller knows where they are. */
  userMcpPaths?: readonly string[];
  /** `servers` objects found in settings (`mcp.servers` as VS Code's configuration API gives it), with where they came from. */
  settings?: readonly { configPath: string; servers: unknown }[];
  /** settings.json files whose `mcp.servers` to read (the command line has no configuration API). */
  settingsFiles?: readonly string[];
}

type Problems = McpInventory['problems'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The 1-based line and column of an offset, as an editor shows them. */
function lineCol(text: string, offset: number): string {
  const before = text.slice(0, offset).split(/\r\n|\r|\n/);
  return `line ${before.length}, column ${before[before.length - 1]!.length + 1}`;
}

/** One server's entry, or a problem naming its key. */
function readServer(name: string, raw: unknown, source: McpSource, configPath: string, keyPrefix: string, problems: Problems): McpServerEntry | undefined {
  const key = `${keyPrefix}.${name}`;
  const fail = (message: string): undefined => {
    problems.push({ path: configPath, message: `${key}${message}` });
    return undefined;
  };
  if (!isObject(raw)) return fail(': expected an object with "command" or "url"');
  const type = raw.type ?? (raw.url !== undefined && raw.command === undefined ? 'http' : 'stdio');
  if (type !== 'stdio' && type !== 'http' && type !== 'sse') return fail(`.type: expected "stdio", "http" or "sse", got ${JSON.stringify(type)}`);
  if (type !== 'stdio') {
    if (typeof raw.url !== 'string' || !raw.url) return fail('.url: expected a string (the server\'s address)');
    return { name, source, configPath, command: '', args: [], url: raw.url };
  }
  if (typeof raw.command !== 'string' || !raw.command) return fail('.command: expected a string (the program that starts the server)');
  const args = raw.args ?? [];
  if (!Array.isArray(args)) return fail('.args: expected an array of strings');
  const bad = args.findIndex((a) => typeof a !== 'string');
  if (bad !== -1) return fail(`.args[${bad}]: expected a string, got ${JSON.stringify(args[bad])}`);
  const pkg = packageOfLaunch(raw.command, args as string[]);
  return { name, source, configPath, command: raw.command, args: args as string[], ...(pkg ? { package: pkg } : {}) };
}

function readServers(servers: unknown, source: McpSource, configPath: string, keyPrefix: string, problems: Problems): McpServerEntry[] {
  if (servers === undefined) return [];
  if (!isObject(servers)) {
    problems.push({ path: configPath, message: `${keyPrefix}: expected an object of servers by name` });
    return [];
  }
  return Object.entries(servers).flatMap(([name, raw]) => readServer(name, raw, source, configPath, keyPrefix, problems) ?? []);
}

/** A JSON-with-comments file's object: absent or empty is undefined; a syntax error is a problem (with its line) and undefined. */
function readJsonc(file: string, problems: Problems): Record<string, unknown> | undefined {
  const text = readIfExists(file);
  if (text === undefined || text.trim() === '') return undefined;
  const errors: ParseError[] = [];
  const doc: unknown = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) {
    const messages = new Set(errors.map((e) => `${printParseErrorCode(e.error)} at ${lineCol(text, e.offset)}`));
    for (const message of messages) problems.push({ path: file, message });
    return undefined;
  }
  if (!isObject(doc)) {
    problems.push({ path: file, message: 'expected an object' });
    return undefined;
  }
  return doc;
}

/** An `mcp.json` file: absent is no servers and no problem; unreadable JSON is a problem and no servers. */
export function readMcpFile(file: string, source: McpSource, problems: Problems): McpServerEntry[] {
  const doc = readJsonc(file, problems);
  if (!doc) return [];
  if (doc.servers === undefined && doc.mcpServers !== undefined) {
    problems.push({ path: file, message: 'mcpServers: VS Code reads "servers" in mcp.json; these servers are not started' });
  }
  return readServers(doc.servers, source, file, 'servers', problems);
}

export function readMcpInventory(opts: McpInventoryOptions): McpInventory {
  const problems: Problems = [];
  const servers: McpServerEntry[] = [];
  if (opts.workspaceFolder) servers.push(...readMcpFile(path.join(opts.workspaceFolder, '.vscode', 'mcp.json'), 'workspace', problems));
  for (const file of opts.userMcpPaths ?? []) servers.push(...readMcpFile(file, 'user', problems));
  for (const s of opts.settings ?? []) servers.push(...readServers(s.servers, 'setting', s.configPath, 'mcp.servers', problems));
  for (const file of opts.settingsFiles ?? []) {
    const mcp = readJsonc(file, problems)?.mcp;
    if (mcp === undefined) continue;
    if (!isObject(mcp)) problems.push({ path: file, message: 'mcp: expected an object with "servers"' });
    else servers.push(...readServers(mcp.servers, 'setting', file, 'mcp.servers', problems));
  }
  return { servers, problems };
}
