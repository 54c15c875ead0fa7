import * as path from 'node:path';
import * as vscode from 'vscode';
import { userMcpFiles } from '../../core/mcp/locations';
import { MCP_AUDIT_SETTINGS } from './auditRunner';

/**
 * Calls `changed` (debounced) when an `mcp.json` the inventory reads is created, changed or deleted —
 * the workspace's `.vscode/mcp.json` and the user's — or when the MCP settings change.
 */
export function watchMcpFiles(workspaceFolder: string | undefined, changed: () => void, delayMs = 750): vscode.Disposable {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => { timer = undefined; changed(); }, delayMs);
  };
  const patterns = [
    // A glob (braces) makes a watch of the whole folder: a plain path is watched alone, and missed here when its folder is new.
    ...(workspaceFolder ? [new vscode.RelativePattern(vscode.Uri.file(workspaceFolder), '{.vscode/mcp.json}')] : []),
    ...userMcpFiles().mcp.map((file) => new vscode.RelativePattern(vscode.Uri.file(path.dirname(file)), path.basename(file))),
  ];
  const disposables: vscode.Disposable[] = patterns.map((pattern) => {
    const w = vscode.workspace.createFileSystemWatcher(pattern);
    w.onDidCreate(fire);
    w.onDidChange(fire);
    w.onDidDelete(fire);
    return w;
  });
  disposables.push(vscode.workspace.onDidChangeConfiguration((e) => {
    if (MCP_AUDIT_SETTINGS.some((k) => e.affectsConfiguration(k))) fire();
  }));
  return new vscode.Disposable(() => {
    if (timer) clearTimeout(timer);
    disposables.forEach((d) => d.dispose());
  });
}
