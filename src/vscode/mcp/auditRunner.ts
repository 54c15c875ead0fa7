import * as vscode from 'vscode';
import { auditServers } from '../../core/rules/mcp/audit';
import { DISCOVERY_SETTING } from '../../core/rules/mcp/discovery';
import { readMcpInventory } from '../../core/rules/mcp/inventory';
import type { McpAudit, McpInventory } from '../../core/rules/mcp/types';
import type { HarnessHost } from '../harnessHost';
import { setAuditRunning } from './auditState';
import { editorSources } from './editorSources';
import { notifyUnaudited } from './notifyUnaudited';

export interface AuditRun {
  inventory: McpInventory;
  audits: McpAudit[];
  /** The servers this run told the user about (unaudited, seen for the first time). */
  told: string[];
  /** The warning shown about them, when one was. */
  notice?: string;
}

/** Settings that change what the audit sees or how it judges. */
export const MCP_AUDIT_SETTINGS = ['mcp', 'alfred.mcpAudit', DISCOVERY_SETTING];

/**
 * Runs the inventory and the audit of the workspace's MCP servers (src/core/rules/mcp/), one run at a time:
 * a request while one runs makes one more run after it. Its results are `latest.json`, which the
 * gate, the dashboard and the doctor read; the dashboard is refreshed and new unaudited servers told.
 */
/** A server found twice (a file and the settings VS Code made of it) is one server: the first found stays. */
export function withoutRepeats(inventory: McpInventory): McpInventory {
  const seen = new Set<string>();
  const servers = inventory.servers.filter((s) => {
    const key = JSON.stringify([s.name, s.command, s.args, s.url ?? null]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { ...inventory, servers };
}

export class McpAuditRunner {
  private running: Promise<AuditRun | undefined> | undefined;
  private again = false;

  /** globalStoragePath: the extension's global storage folder, which tells the editor's own user folder (editorSources.ts). */
  constructor(private readonly host: HarnessHost, private readonly memory: vscode.Memento, private readonly globalStoragePath?: string) {}

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

  /** A run that starts after this call (the command's): one already running may have read the files before a change. */
  async fresh(): Promise<AuditRun | undefined> {
    if (this.running) await this.running.catch(() => undefined);
    return this.run();
  }

  private async once(): Promise<AuditRun | undefined> {
    const harness = this.host.current;
    if (!harness) return undefined;
    setAuditRunning(harness.stateDir, true);
    this.host.refresh();
    try {
      const inventory = withoutRepeats(readMcpInventory(editorSources(harness.workspaceFolder, this.globalStoragePath)));
      const settings = vscode.workspace.getConfiguration('alfred.mcpAudit');
      const downloadsApi = settings.get<string>('downloadsApi')?.trim();
      const thresholds = { minWeeklyDownloads: settings.get<number>('minWeeklyDownloads') ?? 100, maxDaysSincePublish: settings.get<number>('maxDaysSincePublish') ?? 90 };
      const audits = await auditServers(inventory.servers, {
        stateDir: harness.stateDir,
        // An untrusted repository's .npmrc could name its own registry and hand it a token from the
        // environment (`//host/:_authToken=${VAR}`): only the user's npm configuration is used there.
        npmrc: { ...(vscode.workspace.isTrusted ? { workspaceFolder: harness.workspaceFolder } : {}), env: process.env },
        ...(downloadsApi ? { downloadsApi } : {}),
        thresholds,
      });
      const { names: told, message } = await notifyUnaudited(audits, this.memory);
      return { inventory, audits, told, ...(message ? { notice: message } : {}) };
    } finally {
      setAuditRunning(harness.stateDir, false);
      this.host.refresh();
    }
  }
}
