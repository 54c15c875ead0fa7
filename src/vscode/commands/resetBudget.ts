import * as vscode from 'vscode';
import type { AlfredCommand } from './command';

/** Alfred: Reset Budget — a new harness session with zero usage, after a confirmation. */
export const resetBudget: AlfredCommand = {
  id: 'alfred.resetBudget',
  async run({ host }, options?: unknown) {
    const harness = host.require();
    const skipConfirm = (options as { confirm?: boolean } | undefined)?.confirm === false;
    if (!skipConfirm) {
      const reset = vscode.l10n.t('Reset');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('Reset the budget of role {0}? Usage so far: {1}', harness.activeRole().role.name, harness.budget().line),
        { modal: true }, reset);
      if (choice !== reset) return false;
    }
    await harness.reset('user');
    host.refresh();
    return true;
  },
};
