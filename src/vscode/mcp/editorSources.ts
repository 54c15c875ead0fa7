import * as vscode from 'vscode';
import { DISCOVERY_SETTING, discoveryFiles, enabledDiscovery } from '../../core/rules/mcp/discovery';
import type { McpInventoryOptions } from '../../core/rules/mcp/inventory';
import { userConfigFiles, userDirOfGlobalStorage, vscodeUserDirs } from '../../core/rules/mcp/locations';

/**
 * Where the editor finds MCP servers, asked of VS Code where it can tell: its own user folder (from
 * the extension's global storage, ahead of the usual ones, so code-server's --user-data-dir counts), the
 * open workspace file and folders, the user's `mcp.servers`, and the discovery setting's value at
 * every level. VS Code does not tell which profile is active, so every profile is listed.
 */
export function editorSources(workspaceFolder: string | undefined, globalStoragePath: string | undefined): McpInventoryOptions {
  const own = globalStoragePath ? userDirOfGlobalStorage(globalStoragePath) : undefined;
  const user = userConfigFiles([...(own ? [own] : []), ...vscodeUserDirs()]);
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  const workspaceFile = vscode.workspace.workspaceFile;
  const discovery = vscode.workspace.getConfiguration().inspect(DISCOVERY_SETTING);
  // VS Code shows .vscode/mcp.json as the workspace's `mcp` settings too: only the user's own are settings here.
  const userServers = vscode.workspace.getConfiguration('mcp').inspect('servers')?.globalValue;
  const otherFolders = folders.filter((f) => f !== workspaceFolder);
  return {
    ...(workspaceFolder ? { workspaceFolder } : {}),
    otherFolders,
    workspaceFiles: workspaceFile?.scheme === 'file' ? [workspaceFile.fsPath] : [],
    userMcpPaths: user.mcp,
    profiles: user.profiles,
    settings: userServers === undefined ? [] : [{ configPath: vscode.l10n.t('settings (mcp.servers)'), servers: userServers }],
    discovered: discoveryFiles(
      enabledDiscovery([discovery?.defaultValue, discovery?.globalValue, discovery?.workspaceValue, discovery?.workspaceFolderValue]),
      { workspaceFolders: [...(workspaceFolder ? [workspaceFolder] : []), ...otherFolders] },
    ),
  };
}

/** Every file the editor's inventory reads, for the watcher (folders' own files are watched by pattern). */
export function watchedFiles(opts: McpInventoryOptions): string[] {
  return [
    ...(opts.workspaceFiles ?? []), ...(opts.userMcpPaths ?? []), ...(opts.profiles ?? []).map((p) => p.mcp),
    ...(opts.discovered ?? []).filter((d) => d.source !== 'cursor-workspace').map((d) => d.file),
  ];
}
