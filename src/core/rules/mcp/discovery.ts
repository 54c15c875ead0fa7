/**
 * The servers VS Code imports from other applications when `chat.mcp.discovery.enabled` turns them on,
 * at the paths VS Code reads (its nativeMcpDiscoveryAdapters.ts and workspaceMcpDiscoveryAdapter.ts):
 * Claude Desktop's claude_desktop_config.json, Windsurf's and Cursor's mcp files, and each workspace
 * folder's .cursor/mcp.json. All use the `mcpServers` format. Only these fixed paths are ever read.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { isObject } from '../../base/isObject';

export const DISCOVERY_SETTING = 'chat.mcp.discovery.enabled';

export type DiscoverySource = 'claude-desktop' | 'windsurf' | 'cursor-global' | 'cursor-workspace';
export const DISCOVERY_SOURCES: readonly DiscoverySource[] = ['claude-desktop', 'windsurf', 'cursor-global', 'cursor-workspace'];

const APP: Record<DiscoverySource, string> = {
  'claude-desktop': 'Claude Desktop', windsurf: 'Windsurf', 'cursor-global': 'Cursor', 'cursor-workspace': 'Cursor (workspace)',
};

export interface DiscoveredFile {
  source: DiscoverySource;
  /** The application, as VS Code labels it. */
  app: string;
  file: string;
}

/**
 * The sources any of the setting's values turns on (default, user, workspace, folder): `true` is every
 * source, as VS Code's older boolean form; an object turns on the sources set to `true`. A value can
 * only add sources, so a workspace's `false` cannot hide servers the user's settings import.
 */
export function enabledDiscovery(values: readonly unknown[]): Set<DiscoverySource> {
  const on = new Set<DiscoverySource>();
  for (const v of values) {
    if (v === true) DISCOVERY_SOURCES.forEach((s) => on.add(s));
    else if (isObject(v)) DISCOVERY_SOURCES.filter((s) => v[s] === true).forEach((s) => on.add(s));
  }
  return on;
}

export interface DiscoveryPlace {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  home?: string;
  /** The workspace's folders, for Cursor's per-folder file. */
  workspaceFolders?: readonly string[];
}

function claudeDesktopConfig(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string {
  if (platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'Claude', 'claude_desktop_config.json');
}

/** The files of the enabled sources, whether or not they exist (an absent file holds no servers). */
export function discoveryFiles(enabled: ReadonlySet<DiscoverySource>, place: DiscoveryPlace = {}): DiscoveredFile[] {
  const env = place.env ?? process.env;
  const platform = place.platform ?? process.platform;
  const home = place.home ?? os.homedir();
  const files: DiscoveredFile[] = [];
  const add = (source: DiscoverySource, file: string): void => {
    if (enabled.has(source)) files.push({ source, app: APP[source], file });
  };
  add('claude-desktop', claudeDesktopConfig(env, platform, home));
  add('windsurf', path.join(home, '.codeium', 'windsurf', 'mcp_config.json'));
  add('cursor-global', path.join(home, '.cursor', 'mcp.json'));
  for (const folder of place.workspaceFolders ?? []) add('cursor-workspace', path.join(folder, '.cursor', 'mcp.json'));
  return files;
}
