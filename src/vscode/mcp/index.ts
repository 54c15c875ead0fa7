import * as vscode from 'vscode';
import type { HarnessHost } from '../harnessHost';
import { McpAuditRunner } from './auditRunner';
import { watchMcpFiles } from './watchMcpFiles';

/**
 * The MCP audit in the editor: `Alfred: Audit MCP Servers`, a first audit when the window opens on a
 * workspace, and another whenever an `mcp.json` or the MCP settings change.
 */
export function registerMcpAudit(host: HarnessHost, context: vscode.ExtensionContext): vscode.Disposable[] {
  const runner = new McpAuditRunner(host, context.workspaceState);
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
  return [command, watchMcpFiles(host.current?.workspaceFolder, run)];
}
