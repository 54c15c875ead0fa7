import * as vscode from 'vscode';
import type { HarnessHost } from '../harnessHost';
import { McpAuditRunner } from './auditRunner';
import { editorSources, watchedFiles } from './editorSources';
import { watchMcpFiles } from './watchMcpFiles';

/**
 * The MCP audit in the editor: `Alfred: Audit MCP Servers`, a first audit when the window opens on a
 * workspace, and another whenever a file it reads (an `mcp.json`, the workspace file, another
 * application's configuration) or the MCP settings change.
 */
export function registerMcpAudit(host: HarnessHost, context: vscode.ExtensionContext): vscode.Disposable[] {
  const globalStorage = context.globalStorageUri.scheme === 'file' ? context.globalStorageUri.fsPath : undefined;
  const runner = new McpAuditRunner(host, context.workspaceState, globalStorage);
  const run = (): void => {
    void runner.run().catch((err: unknown) => console.error('[alfred] MCP audit failed:', err));
  };
  const command = vscode.commands.registerCommand('alfred.auditMcpServers', async () => {
    if (!host.current) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Open a folder: Alfred audits the MCP servers a workspace configures.'));
      return undefined;
    }
    return runner.fresh();
  });
  if (host.current) run();
  const folder = host.current?.workspaceFolder;
  const folders = [...new Set([...(folder ? [folder] : []), ...(vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath)])];
  const files = (): string[] => watchedFiles(editorSources(folder, globalStorage));
  return [command, watchMcpFiles(folders, files, run)];
}
