import * as vscode from 'vscode';
import { listBackups, type BackupManifest } from '../../core/base/config/backups';
import type { Harness } from '../../core/harness/harness';

/** A quick pick of the backups, newest first; undefined when the user dismissed it or there is none. */
export async function pickBackup(harness: Harness, title: string, placeHolder: string): Promise<BackupManifest | undefined> {
  const { backups, problems } = listBackups(harness.stateDir);
  if (problems.length) void vscode.window.showWarningMessage(vscode.l10n.t('Some backups could not be read: {0}', problems.join('; ')));
  if (backups.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No backup yet: Alfred keeps one each time it writes a configuration file for you.'));
    return undefined;
  }
  const items = backups.map((b) => ({
    label: `${b.pinned ? '$(pinned)' : '$(history)'} ${new Date(b.createdAt).toLocaleString()}`,
    description: b.title ?? b.reason,
    detail: b.files.map((f) => `${vscode.workspace.asRelativePath(f.path, false)}${f.existed ? '' : ` (${vscode.l10n.t('did not exist')})`}`).join(', '),
    backup: b,
  }));
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder, matchOnDescription: true, matchOnDetail: true });
  return picked?.backup;
}

/** A backup by id (from a command's argument), or the user's pick. */
export async function backupFromArgs(harness: Harness, id: unknown, title: string, placeHolder: string): Promise<BackupManifest | undefined> {
  if (typeof id === 'string') {
    const found = listBackups(harness.stateDir).backups.find((b) => b.id === id);
    if (!found) throw new Error(vscode.l10n.t('No backup {0} in {1}', id, harness.stateDir));
    return found;
  }
  return pickBackup(harness, title, placeHolder);
}
