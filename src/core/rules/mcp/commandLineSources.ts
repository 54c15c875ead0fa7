/**
 * Every source of MCP servers the command line reads for a workspace folder. It has no configuration
 * API, so it reads the files VS Code would: the folder's own files, its `.code-workspace` files, every
 * user folder and profile (the active profile is not known here), and the other applications' files
 * that `chat.mcp.discovery.enabled` turns on in any of those settings.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { DISCOVERY_SETTING, discoveryFiles, enabledDiscovery } from './discovery';
import type { McpInventoryOptions } from './inventory';
import { userMcpFiles, workspaceFilesIn } from './locations';
import { settingsOf } from './settings';

export interface CommandLineSources {
  inventory: McpInventoryOptions;
  /** The user's settings.json files, where the audit's own settings are read (settings.ts). */
  userSettings: string[];
}

export function commandLineSources(folder: string, env: NodeJS.ProcessEnv = process.env, home = os.homedir()): CommandLineSources {
  const user = userMcpFiles(env, process.platform, home);
  const workspaceSettings = path.join(folder, '.vscode', 'settings.json');
  const workspaceFiles = workspaceFilesIn(folder);
  const discoveryValues = [
    ...[...user.settings, ...user.profiles.map((p) => p.settings), workspaceSettings].map((f) => settingsOf(f)[DISCOVERY_SETTING]),
    ...workspaceFiles.map((f) => {
      const settings = settingsOf(f).settings;
      return typeof settings === 'object' && settings !== null ? (settings as Record<string, unknown>)[DISCOVERY_SETTING] : undefined;
    }),
  ];
  return {
    inventory: {
      workspaceFolder: folder,
      workspaceFiles,
      userMcpPaths: user.mcp,
      profiles: user.profiles,
      settingsFiles: [...user.settings, workspaceSettings],
      discovered: discoveryFiles(enabledDiscovery(discoveryValues), { env, home, workspaceFolders: [folder] }),
    },
    userSettings: user.settings,
  };
}
