import * as path from 'node:path';
import * as vscode from 'vscode';
import { applyPlan, configWrittenEvent } from '../../core/base/config/apply';
import { planWrite } from '../../core/base/config/plan';
import type { WritePlan, WriteRequest } from '../../core/base/config/types';
import type { HarnessHost } from '../harnessHost';
import { confirmations } from './confirmations';

export type { FileChange, WriteRequest } from '../../core/base/config/types';

/**
 * The one way Alfred changes a user's configuration files: plan → diff shown and confirmed → backup
 * → atomic write → ConfigWritten event → live reload of what reads the files.
 *
 *   await confirmAndWrite(host, { files: [{ path, newText }], reason: 'install hooks', title: 'Govern Copilot' })
 *
 * `newText: null` deletes a file; `secret: true` hides every value in the diff and writes it 0600.
 * Resolves true when the files were written; false when the user cancelled or nothing had to change
 * (then a message says so). Throws, naming the file, when the write failed (every file is then
 * left as it was, or restorable from the backup the message names).
 */
export async function confirmAndWrite(host: HarnessHost, request: WriteRequest): Promise<boolean> {
  const harness = host.require();
  const plan = planWrite(request, { label: (file) => vscode.workspace.asRelativePath(file, false) });
  if (plan.files.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Nothing to change: {0} already as requested.', plan.unchanged.map((f) => path.basename(f)).join(', ')));
    return false;
  }
  if (!(await confirmations.review(host, plan))) return false;
  const result = applyPlan(plan, { stateDir: harness.stateDir });
  try {
    await harness.record([configWrittenEvent(plan, result)]);
  } catch (err) {
    // The files are written and backed up; a log that cannot be appended must not hide that.
    void vscode.window.showWarningMessage(vscode.l10n.t('The files were written, but the event log could not record it: {0}', (err as Error).message));
  }
  reloadReaders(host, plan);
  return true;
}

/** Whatever reads a written file picks the change up now. Settings files: VS Code reloads them itself. */
function reloadReaders(host: HarnessHost, plan: WritePlan): void {
  const harness = host.current;
  if (!harness) return;
  const roleDirs = new Set(harness.roleFolders().map((f) => path.resolve(f.dir)));
  if (plan.files.some((f) => f.path.toLowerCase().endsWith('.toml') && roleDirs.has(path.dirname(path.resolve(f.path))))) {
    host.reloadRoles();
  } else {
    host.refresh();
  }
}
