import * as vscode from 'vscode';
import { writeHandoff as write, type Handoff } from '../../core/workflow/handoff/handoff';
import { handoffSummary } from '../handoff/summary';
import type { AlfredCommand } from './command';

/**
 * Alfred: Write Handoff — records branch, HEAD, changed files, the last command and pending
 * operations with the next step the user gives, for the next session to check and pick up.
 * Argument (tests, other callers): `{ nextStep }` skips the input box.
 */
export const writeHandoff: AlfredCommand = {
  id: 'alfred.writeHandoff',
  async run({ host }, options?: unknown): Promise<Handoff | undefined> {
    const harness = host.require();
    let nextStep = (options as { nextStep?: unknown } | undefined)?.nextStep;
    if (typeof nextStep !== 'string') {
      nextStep = await vscode.window.showInputBox({
        title: vscode.l10n.t('Alfred: Write Handoff'),
        prompt: vscode.l10n.t('What should the next session do first?'),
        placeHolder: vscode.l10n.t('e.g. make the discount test pass, then run the checks'),
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() === '' ? vscode.l10n.t('Say what comes next.') : undefined),
      });
      if (typeof nextStep !== 'string') return undefined;
    }
    const handoff = await write(harness, { nextStep, by: 'user' });
    void vscode.window.showInformationMessage(handoffSummary(handoff));
    return handoff;
  },
};
