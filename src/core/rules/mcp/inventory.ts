/**
 * Every MCP server configured for a workspace and its user: `.vscode/mcp.json` of each workspace folder,
 * a multi-root workspace file's `settings.mcp`, the user's `mcp.json` and each profile's, servers given
 * in settings, and the other applications' files VS Code imports (discovery.ts). VS Code's format is
 * JSON with comments: `servers` of `command`/`args` or `type`/`url`, and `inputs`. Each source is read
 * on its own (configFile.ts): one broken file or server does not hide the others.
 */
import * as path from 'node:path';
import { isObject } from '../../base/isObject';
import { readJsonc, readServers, type Problems } from './configFile';
import type { DiscoveredFile } from './discovery';
import { profileLabel, type ProfileFiles } from './profiles';
import type { McpInventory, McpServerEntry, McpSource } from './types';

export interface McpInventoryOptions {
  /** Reads `<folder>/.vscode/mcp.json` when given. */
  workspaceFolder?: string;
  /** The other folders of a multi-root workspace, whose `.vscode/mcp.json` VS Code reads too. */
  otherFolders?: readonly string[];
  /** `.code-workspace` files whose `settings.mcp.servers` to read. */
  workspaceFiles?: readonly string[];
  /** The user's `mcp.json` files (VS Code's user folder, per profile); the caller knows where they are. */
  userMcpPaths?: readonly string[];
  /** Profiles' `mcp.json` and settings.json, each server named with its profile. */
  profiles?: readonly ProfileFiles[];
  /** `servers` objects found in settings (`mcp.servers` as VS Code's configuration API gives it), with where they came from. */
  settings?: readonly { configPath: string; servers: unknown }[];
  /** settings.json files whose `mcp.servers` to read (the command line has no configuration API). */
  settingsFiles?: readonly string[];
  /** Other applications' files that `chat.mcp.discovery.enabled` imports. */
  discovered?: readonly DiscoveredFile[];
}

/** An `mcp.json` file: absent is no servers and no problem; unreadable JSON is a problem and no servers. */
export function readMcpFile(file: string, source: McpSource, problems: Problems, origin?: string): McpServerEntry[] {
  const doc = readJsonc(file, problems);
  if (!doc) return [];
  if (doc.servers === undefined && doc.mcpServers !== undefined) {
    problems.push({ path: file, message: 'mcpServers: VS Code reads "servers" in mcp.json; these servers are not started' });
  }
  return readServers(doc.servers, { source, configPath: file, keyPrefix: 'servers', ...(origin ? { origin } : {}) }, problems);
}

/** `mcp.servers` of a settings.json. */
function readSettingsFile(file: string, problems: Problems, origin?: string): McpServerEntry[] {
  const mcp = readJsonc(file, problems)?.mcp;
  if (mcp === undefined) return [];
  if (!isObject(mcp)) {
    problems.push({ path: file, message: 'mcp: expected an object with "servers"' });
    return [];
  }
  return readServers(mcp.servers, { source: 'setting', configPath: file, keyPrefix: 'mcp.servers', ...(origin ? { origin } : {}) }, problems);
}

/**
 * A `.code-workspace` file: VS Code reads its `settings.mcp` (the workspace target of its MCP
 * configuration); a top-level `mcp` is not read by VS Code, so it is said rather than listed.
 */
function readWorkspaceFile(file: string, problems: Problems): McpServerEntry[] {
  const doc = readJsonc(file, problems);
  if (!doc) return [];
  if (doc.mcp !== undefined) problems.push({ path: file, message: 'mcp: VS Code reads "settings": { "mcp": … } in a workspace file; these servers are not started' });
  const settings = doc.settings;
  if (settings === undefined) return [];
  if (!isObject(settings)) {
    problems.push({ path: file, message: 'settings: expected an object' });
    return [];
  }
  const mcp = settings.mcp;
  if (mcp === undefined) return [];
  if (!isObject(mcp)) {
    problems.push({ path: file, message: 'settings.mcp: expected an object with "servers"' });
    return [];
  }
  return readServers(mcp.servers, { source: 'workspace', configPath: file, keyPrefix: 'settings.mcp.servers' }, problems);
}

/** Another application's file: `mcpServers`, as VS Code imports it. */
function readDiscovered(d: DiscoveredFile, problems: Problems): McpServerEntry[] {
  const doc = readJsonc(d.file, problems);
  if (!doc) return [];
  return readServers(doc.mcpServers, { source: 'discovered', configPath: d.file, keyPrefix: 'mcpServers', origin: d.app }, problems);
}

export function readMcpInventory(opts: McpInventoryOptions): McpInventory {
  const problems: Problems = [];
  const servers: McpServerEntry[] = [];
  for (const folder of [...(opts.workspaceFolder ? [opts.workspaceFolder] : []), ...(opts.otherFolders ?? [])]) {
    servers.push(...readMcpFile(path.join(folder, '.vscode', 'mcp.json'), 'workspace', problems));
  }
  for (const file of opts.workspaceFiles ?? []) servers.push(...readWorkspaceFile(file, problems));
  for (const file of opts.userMcpPaths ?? []) servers.push(...readMcpFile(file, 'user', problems));
  for (const p of opts.profiles ?? []) servers.push(...readMcpFile(p.mcp, 'user', problems, profileLabel(p)));
  for (const s of opts.settings ?? []) servers.push(...readServers(s.servers, { source: 'setting', configPath: s.configPath, keyPrefix: 'mcp.servers' }, problems));
  for (const file of opts.settingsFiles ?? []) servers.push(...readSettingsFile(file, problems));
  for (const p of opts.profiles ?? []) servers.push(...readSettingsFile(p.settings, problems, profileLabel(p)));
  for (const d of opts.discovered ?? []) servers.push(...readDiscovered(d, problems));
  return { servers, problems };
}
