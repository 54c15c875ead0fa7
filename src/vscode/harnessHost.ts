import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { protectedGlobsReader } from '../core/protect/protectGlobs';
import { publishPricing } from '../core/rules/budget/pricingFile';
import { Harness } from '../core/harness/harness';
import { publishableProviders } from '../core/models/providers/publishable';
import { PROVIDERS_FILE, publishJson } from '../core/base/state/published';
import { sweepInterrupted } from '../core/workflow/operations/lifecycle';
import type { AlfredEvent } from '../core/base/events/types';
import { readSettings, roleSettings } from './settings';

/**
 * Owns the Harness of the open workspace (the first folder of a multi-root window) and keeps it
 * current: role files, settings, Workspace Trust and other processes' ledger writes (hooks, the CLI).
 */
export class HarnessHost implements vscode.Disposable {
  private harness: Harness | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly eventEmitter = new vscode.EventEmitter<AlfredEvent>();
  private readonly disposables: vscode.Disposable[] = [this.changed, this.eventEmitter];
  private watchers: vscode.Disposable[] = [];
  private unsubscribe: (() => void) | undefined;
  /** Ids of events already passed on, so events other processes wrote can be told apart. */
  private readonly seen = new Set<string>();

  /** Roles, the active role or the budget may have changed: re-read and redraw. */
  readonly onDidChange = this.changed.event;
  /** Every event the harness writes in this window, live. */
  readonly onEvent = this.eventEmitter.event;

  constructor(readonly extensionUri: vscode.Uri) {
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.rebuild()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.rebuild()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('alfred')) {
          this.publishPricing();
          void this.followActiveRole();
        }
      }),
    );
    this.rebuild();
  }

  get current(): Harness | undefined {
    return this.harness;
  }

  /** The harness, or a clear error for commands run without a folder open. */
  require(): Harness {
    if (!this.harness) throw new Error(vscode.l10n.t('Open a folder first: Alfred governs the agents working in a workspace.'));
    return this.harness;
  }

  /** The hook processes and the CLI price as this window's settings do, and see its providers (state/published.ts). */
  private publishPricing(): void {
    if (!this.harness) return;
    try {
      publishPricing(this.harness.stateDir, readSettings().pricing);
      // Never a literal key, whatever the settings file holds (providers/publishable.ts).
      publishJson(this.harness.stateDir, PROVIDERS_FILE, publishableProviders(vscode.workspace.getConfiguration('alfred').get('providers')));
    } catch (err) {
      console.error('[alfred] could not publish the prices for hooks and the CLI:', err);
    }
  }

  private rebuild(): void {
    this.unsubscribe?.();
    this.watchers.forEach((w) => w.dispose());
    this.watchers = [];
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder || folder.uri.scheme !== 'file') {
      this.harness = undefined;
      this.changed.fire();
      return;
    }
    const harness = new Harness({
      workspaceFolder: folder.uri.fsPath,
      builtinRolesDir: vscode.Uri.joinPath(this.extensionUri, 'roles').fsPath,
      trusted: vscode.workspace.isTrusted,
      roleSetting: () => roleSettings().user,
      workspaceRoleSetting: () => roleSettings().workspace,
      pricing: () => readSettings().pricing,
      protectedGlobs: protectedGlobsReader(folder.uri.fsPath),
      version: extensionVersion(this.extensionUri),
      ledgerUrl: vscode.workspace.getConfiguration('alfred').get<string>('ledgerUrl')?.trim() || undefined,
    });
    this.harness = harness;
    this.publishPricing();
    this.seen.clear();
    for (const e of harness.events({ tail: 200 }).events) this.seen.add(e.id);
    this.unsubscribe = harness.bus.on((e) => this.pass(e));
    this.watch(harness);
    void this.followActiveRole();
    void this.sweepOperations(harness);
  }

  /** Operations a closed window or a crash left running are `unknown` now: the user reconciles them. */
  private async sweepOperations(harness: Harness): Promise<void> {
    try {
      const swept = await sweepInterrupted(harness);
      if (swept.length === 0) return;
      this.changed.fire();
      const reconcile = vscode.l10n.t('Reconcile');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('{0} operation(s) were interrupted while running (the window closed or Alfred stopped). Alfred will not re-run them: look at their effect and reconcile them.', swept.length),
        reconcile);
      if (choice === reconcile) await vscode.commands.executeCommand('alfred.reconcileOperations');
    } catch (err) {
      console.error('[alfred] could not sweep interrupted operations:', err);
    }
  }

  private watch(harness: Harness): void {
    const reloadRoles = () => {
      harness.reloadRoles();
      void this.followActiveRole();
    };
    for (const folder of harness.roleFolders()) {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder.dir), '*.toml'));
      w.onDidChange(reloadRoles);
      w.onDidCreate(reloadRoles);
      w.onDidDelete(reloadRoles);
      this.watchers.push(w);
    }
    // Hooks and the CLI write the same ledger from other processes.
    const state = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(harness.stateDir), '{ledger,runtime}.json'));
    const refresh = () => {
      for (const e of harness.events({ tail: 200 }).events) this.pass(e);
      this.changed.fire();
    };
    state.onDidChange(refresh);
    state.onDidCreate(refresh);
    this.watchers.push(state);
  }

  /** Starts a new budget session when the active role changed underneath (setting, role file, CLI). */
  private async followActiveRole(): Promise<void> {
    try {
      await this.harness?.sync();
    } catch (err) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Alfred could not update its ledger: {0}', (err as Error).message));
    }
    this.changed.fire();
  }

  private pass(e: AlfredEvent): void {
    if (this.seen.has(e.id)) return;
    this.seen.add(e.id);
    if (this.seen.size > 2000) this.seen.delete(this.seen.values().next().value as string);
    this.eventEmitter.fire(e);
  }

  /** Reads the role files again now (after Alfred wrote one), without waiting for the file watcher. */
  reloadRoles(): void {
    this.harness?.reloadRoles();
    void this.followActiveRole();
  }

  /** Call after an action that changed roles or the budget from this window. */
  refresh(): void {
    this.changed.fire();
  }

  dispose(): void {
    this.unsubscribe?.();
    this.watchers.forEach((w) => w.dispose());
    this.disposables.forEach((d) => d.dispose());
  }
}

function extensionVersion(extensionUri: vscode.Uri): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(vscode.Uri.joinPath(extensionUri, 'package.json').fsPath, 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
