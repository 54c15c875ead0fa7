import * as vscode from 'vscode';
import { describeOperation, reconcileOperation, unknownOperations } from '../../core/workflow/operations/lifecycle';
import type { Operation } from '../../core/workflow/operations/store';
import type { AlfredCommand } from './command';

/**
 * Alfred: Reconcile Operations — an operation a timeout, a closed window or a crash left `unknown`
 * is marked succeeded or failed by the user, after looking at its effect. Alfred never re-runs it.
 * Arguments (dashboard, tests): an operation id, and optionally 'succeeded' or 'failed'.
 */
export const reconcileOperations: AlfredCommand = {
  id: 'alfred.reconcileOperations',
  async run({ host }, id?: unknown, state?: unknown): Promise<Operation | undefined> {
    const harness = host.require();
    const unknown = unknownOperations(harness.stateDir);
    let op = typeof id === 'string' ? unknown.find((o) => o.id === id) : undefined;
    if (typeof id === 'string' && !op) throw new Error(vscode.l10n.t('Operation {0} is not waiting to be reconciled.', id));
    if (!op) {
      if (unknown.length === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('No operation is waiting to be reconciled.'));
        return undefined;
      }
      const picked = await vscode.window.showQuickPick(unknown.map((o) => ({
        label: describeOperation(o), description: new Date(o.createdAt).toLocaleString(), detail: o.note, op: o,
      })), { title: vscode.l10n.t('Alfred: operations whose outcome is unknown'), placeHolder: vscode.l10n.t('Pick one to say how it really ended') });
      op = picked?.op;
      if (!op) return undefined;
    }
    let end: 'succeeded' | 'failed' | undefined = state === 'succeeded' || state === 'failed' ? state : undefined;
    if (!end) {
      const choice = await vscode.window.showQuickPick([
        { label: vscode.l10n.t('It succeeded'), detail: vscode.l10n.t('Its effect is there, as intended.'), end: 'succeeded' as const },
        { label: vscode.l10n.t('It failed'), detail: vscode.l10n.t('Its effect is not there (or was undone).'), end: 'failed' as const },
      ], { title: describeOperation(op), placeHolder: vscode.l10n.t('Look at its effect first: Alfred will not run it again') });
      end = choice?.end;
      if (!end) return undefined;
    }
    const done = await reconcileOperation(harness, op.id, end, 'user');
    host.refresh();
    return done;
  },
};
