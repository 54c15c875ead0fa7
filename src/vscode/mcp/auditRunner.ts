import * as vscode from 'vscode';
import { auditServers } from '../../core/mcp/audit';
import { readMcpInventory } from '../../core/mcp/inventory';
import { userMcpFiles } from '../../core/mcp/locations';
import type { McpAudit, McpInventory } from '../../core/mcp/types';
import type { HarnessHost } from '../harnessHost';
import { setAuditRunning } from './auditState';
import { notifyUnaudited } from './notifyUnaudited';

export interface AuditRun {
  inventory: McpInventory;
  audits: McpAudit[];
}

/** Settings that change what the audit sees or how it judges. */
export const MCP_AUDIT_SETTINGS = ['mcp', 'alfred.mcpAudit'];

/**
 * Runs the inventory and the audit of the workspace's MCP servers (src/core/mcp/), one run at a time:
 * a request while one runs makes one more run after it. Its results are `latest.json`, which the
 * gate, the dashboard and the doctor read; the dashboard is refreshed and new unaudited servers told.
 */
export class McpAuditRunner {
  private running: Promise<AuditRun | undefined> | undefined;
  private again = false;

  constructor(private readonly host: HarnessHost, private readonly memory: vscode.Memento) {}

  run(): Promise<AuditRun | undefined> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.once().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        void this.run();
      }
    });
    return this.running;
  }

  private async once(): Promise<AuditRun | undefined> {
    const harness = this.host.current;
    if (!harness) return undefined;
    setAuditRunning(harness.stateDir, true);
    this.host.refresh();
    try {
      const inventory = readMcpInventory({
        workspaceFolder: harness.workspaceFolder,
        userMcpPaths: userMcpFiles().mcp,
        settings: [{ configPath: vscode.l10n.t('settings (mcp.servers)'), servers: vscode.workspace.getConfiguration('mcp').get('servers') }],
      });
      const downloadsApi = vscode.workspace.getConfiguration('alfred.mcpAudit').get<string>('downloadsApi')?.trim();
      const audits = await auditServers(inventory.servers, {
        stateDir: harness.stateDir,
        npmrc: { workspaceFolder: harness.workspaceFolder, env: process.env },
        ...(downloadsApi ? { downloadsApi } : {}),
      });
      await notifyUnaudited(audits, this.memory);
      return { inventory, audits };
    } finally {
      setAuditRunning(harness.stateDir, false);
      this.host.refresh();
    }
  }
}
