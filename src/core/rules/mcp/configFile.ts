/**
 * Reading one MCP configuration: a JSON-with-comments file, and the servers object inside it (VS Code's
 * `servers`, or another application's `mcpServers`), each server checked on its own. A problem names
 * the file and the key; one bad server does not hide the others. Every source of the inventory reads
 * through here, so all of them report the same problems the same way.
 */
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { readIfExists } from '../../base/fs/readIfExists';
import { isObject } from '../../base/isObject';
import { packageOfLaunch } from './launchers';
import type { McpInventory, McpServerEntry, McpSource } from './types';

export type Problems = McpInventory['problems'];

/** Where the servers of one object were found: the source, the file, and the key path shown in problems. */
export interface ServersAt {
  source: McpSource;
  configPath: string;
  keyPrefix: string;
  /** The profile or application the file belongs to, when its path alone does not say it. */
  origin?: string;
}

/** The 1-based line and column of an offset, as an editor shows them. */
function lineCol(text: string, offset: number): string {
  const before = text.slice(0, offset).split(/\r\n|\r|\n/);
  return `line ${before.length}, column ${before[before.length - 1]!.length + 1}`;
}

/** One server's entry, or a problem naming its key. */
function readServer(name: string, raw: unknown, at: ServersAt, problems: Problems): McpServerEntry | undefined {
  const key = `${at.keyPrefix}.${name}`;
  const fail = (message: string): undefined => {
    problems.push({ path: at.configPath, message: `${key}${message}` });
    return undefined;
  };
  const base = { name, source: at.source, configPath: at.configPath, ...(at.origin ? { origin: at.origin } : {}) };
  if (!isObject(raw)) return fail(': expected an object with "command" or "url"');
  const type = raw.type ?? (raw.url !== undefined && raw.command === undefined ? 'http' : 'stdio');
  if (type !== 'stdio' && type !== 'http' && type !== 'sse') return fail(`.type: expected "stdio", "http" or "sse", got ${JSON.stringify(type)}`);
  if (type !== 'stdio') {
    if (typeof raw.url !== 'string' || !raw.url) return fail('.url: expected a string (the server\'s address)');
    return { ...base, command: '', args: [], url: raw.url };
  }
  if (typeof raw.command !== 'string' || !raw.command) return fail('.command: expected a string (the program that starts the server)');
  const args = raw.args ?? [];
  if (!Array.isArray(args)) return fail('.args: expected an array of strings');
  const bad = args.findIndex((a) => typeof a !== 'string');
  if (bad !== -1) return fail(`.args[${bad}]: expected a string, got ${JSON.stringify(args[bad])}`);
  const pkg = packageOfLaunch(raw.command, args as string[]);
  return { ...base, command: raw.command, args: args as string[], ...(pkg ? { package: pkg } : {}) };
}

/** Every server of a `servers`-like object; absent is none, anything but an object is a problem. */
export function readServers(servers: unknown, at: ServersAt, problems: Problems): McpServerEntry[] {
  if (servers === undefined) return [];
  if (!isObject(servers)) {
    problems.push({ path: at.configPath, message: `${at.keyPrefix}: expected an object of servers by name` });
    return [];
  }
  return Object.entries(servers).flatMap(([name, raw]) => readServer(name, raw, at, problems) ?? []);
}

/** A JSON-with-comments file's object: absent or empty is undefined; a syntax error is a problem (with its line) and undefined. */
export function readJsonc(file: string, problems: Problems): Record<string, unknown> | undefined {
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
