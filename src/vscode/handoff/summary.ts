import * as vscode from 'vscode';
import type { Handoff } from '../../core/workflow/handoff/handoff';

/** One sentence on a handoff just written, for the palette command's message and `@alfred /handoff`. */
export function handoffSummary(handoff: Handoff): string {
  const where = handoff.branch ? vscode.l10n.t('on {0}', handoff.branch) : vscode.l10n.t('(no git)');
  return vscode.l10n.t('Handoff written {0}: {1} changed file(s), {2} open operation(s). The next session will see it checked against the workspace.',
    where, handoff.changedFiles.length, handoff.pendingOperations.length);
}
