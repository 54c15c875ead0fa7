import * as vscode from 'vscode';
import type { AlfredCommand } from './command';

/** Alfred: Show Budget — the exact budget line, with the next useful actions. */
export const showBudget: AlfredCommand = {
  id: 'alfred.showBudget',
  async run({ host }) {
    const { line } = host.require().budget();
    const reset = vscode.l10n.t('Reset Budget');
    const dashboard = vscode.l10n.t('Open Dashboard');
    const choice = await vscode.window.showInformationMessage(line, reset, dashboard);
    if (choice === reset) await vscode.commands.executeCommand('alfred.resetBudget');
    if (choice === dashboard) await vscode.commands.executeCommand('alfred.openDashboard');
    return line;
  },
};
