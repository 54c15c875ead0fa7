import * as path from 'node:path';
import * as vscode from 'vscode';
import { MCP_AUDIT_SETTINGS } from './auditRunner';

/**
 * Calls `changed` (debounced) when a file the inventory reads is created, changed or deleted — each
 * workspace folder's `.vscode/mcp.json` and `.cursor/mcp.json`, and the files `files()` names (the
 * workspace file, the user's and each profile's `mcp.json`, other applications' files) — or when the
 * MCP settings change. Those files are watched one by one, never their folders: a user folder holds
 * busy storage that a recursive watch would follow. `files()` is asked again after a settings change
 * (discovery turned on adds files); a profile created meanwhile counts from the next window.
 */
export function watchMcpFiles(workspaceFolders: readonly string[], files: () => readonly string[], changed: () => void, delayMs = 750): vscode.Disposable {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => { timer = undefined; changed(); }, delayMs);
  };
  const watch = (pattern: vscode.RelativePattern): vscode.Disposable => {
    const w = vscode.workspace.createFileSystemWatcher(pattern);
    w.onDidCreate(fire);
    w.onDidChange(fire);
    w.onDidDelete(fire);
    return w;
  };
  // A glob (braces) makes a watch of the whole folder: a plain path is watched alone, and missed here when its folder is new.
  const folderWatchers = workspaceFolders.map((f) => watch(new vscode.RelativePattern(vscode.Uri.file(f), '{.vscode/mcp.json,.cursor/mcp.json}')));
  let fileWatchers: vscode.Disposable[] = [];
  const watchFiles = (): void => {
    fileWatchers.forEach((d) => d.dispose());
    fileWatchers = [...new Set(files())].map((file) => watch(new vscode.RelativePattern(vscode.Uri.file(path.dirname(file)), path.basename(file))));
  };
  watchFiles();
  const settings = vscode.workspace.onDidChangeConfiguration((e) => {
    if (!MCP_AUDIT_SETTINGS.some((k) => e.affectsConfiguration(k))) return;
    watchFiles();
    fire();
  });
  return new vscode.Disposable(() => {
    if (timer) clearTimeout(timer);
    [...folderWatchers, ...fileWatchers, settings].forEach((d) => d.dispose());
  });
}
