import * as vscode from 'vscode';
import { formatOutcome } from '../../core/workflow/completion/report';
import type { VerifyOutcome } from '../../core/workflow/completion/verify';
import { lastTurnConfiguration } from '../chat/lastSession';
import { runVerification } from '../completion/runVerification';
import type { AlfredCommand } from './command';

let output: vscode.OutputChannel | undefined;

/**
 * Alfred: Verify Completion — the harness runs the acceptance checks itself (progress notification,
 * cancellable), appends the completion record, and shows the verdict; a refusal shows the failing
 * output in the "Alfred: Completion" output channel. Returns the outcome (for tests and callers).
 * The record's fingerprint carries what the window knows: its latest `@alfred` turn's configuration
 * (chat/lastSession.ts), or `n/a` before any.
 */
export const verifyCompletion: AlfredCommand = {
  id: 'alfred.verifyCompletion',
  async run({ host, extension }): Promise<VerifyOutcome> {
    const harness = host.require();
    const outcome = await vscode.window.withProgress({
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Alfred: verifying completion'),
      cancellable: true,
    }, (progress, token) => runVerification(harness, 'command', token, (p) => {
      if (p.step === 'snapshot') progress.report({ message: vscode.l10n.t('identifying the snapshot ({0})', p.when) });
      if (p.step === 'check') progress.report({ message: vscode.l10n.t('running {0} ({1}/{2})', p.name, p.index + 1, p.total), increment: 100 / (p.total + 1) });
    }, lastTurnConfiguration()));
    host.refresh();
    if (!output) {
      output = vscode.window.createOutputChannel('Alfred: Completion', 'log');
      extension.subscriptions.push(output, { dispose: () => { output = undefined; } });
    }
    output.appendLine(`── ${new Date().toISOString()} ──`);
    output.appendLine(formatOutcome(outcome));
    if (outcome.accepted) {
      void vscode.window.showInformationMessage(outcome.reason);
    } else if (outcome.kind === 'recorded') {
      output.show(true);
      const show = vscode.l10n.t('Show Output');
      void vscode.window.showErrorMessage(outcome.reason, show).then((c) => { if (c === show) output?.show(); });
    } else {
      void vscode.window.showWarningMessage(outcome.reason);
    }
    return outcome;
  },
};
