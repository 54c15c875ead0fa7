import * as vscode from 'vscode';
import type { Dimension, Signal } from '../core/rules/budget/types';
import type { HarnessHost } from './harnessHost';

const RANK: Record<Signal, number> = { OK: 0, WARNING: 1, EXHAUSTED: 2 };

/**
 * Tells the user when a dimension crosses into WARNING or EXHAUSTED, whoever charged it: a tool in
 * this window, a Copilot hook or the CLI (those reach us as ledger changes).
 */
export class BudgetNotifier implements vscode.Disposable {
  private last: { session: string | undefined; signals: Record<Dimension, Signal> } | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly host: HarnessHost) {
    this.subscription = host.onDidChange(() => this.check());
    this.check();
  }

  private check(): void {
    const harness = this.host.current;
    if (!harness) return;
    const { status, line, session } = harness.budget();
    const signals = { tokens: status.dimensions.tokens.signal, shell: status.dimensions.shell.signal, cost: status.dimensions.cost.signal };
    const before = this.last && this.last.session === session ? this.last.signals : undefined;
    this.last = { session, signals };
    if (!before) return;
    const worsened = (Object.keys(signals) as Dimension[]).filter((d) => RANK[signals[d]] > RANK[before[d]]);
    if (worsened.length === 0) return;
    const exhausted = worsened.filter((d) => signals[d] === 'EXHAUSTED');
    const reset = vscode.l10n.t('Reset Budget');
    const switchRole = vscode.l10n.t('Switch Role');
    const pick = (choice: string | undefined) => {
      if (choice === reset) void vscode.commands.executeCommand('alfred.resetBudget');
      if (choice === switchRole) void vscode.commands.executeCommand('alfred.switchRole');
    };
    if (exhausted.length) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Alfred: budget exhausted ({0}). Agents can only read their budget now. {1}', exhausted.join(', '), line), reset, switchRole).then(pick);
    } else {
      void vscode.window.showWarningMessage(vscode.l10n.t('Alfred: budget warning ({0}). {1}', worsened.join(', '), line), reset).then(pick);
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
