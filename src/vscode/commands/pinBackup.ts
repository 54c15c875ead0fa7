import * as vscode from 'vscode';
import { setPinned } from '../../core/base/config/backups';
import { backupFromArgs } from '../config/pickBackup';
import type { AlfredCommand } from './command';

/**
 * Alfred: Pin Backup — keeps a backup forever (the newest 10 unpinned are kept otherwise). Picking a
 * pinned backup unpins it. Returns the backup's pinned state.
 */
export const pinBackup: AlfredCommand = {
  id: 'alfred.pinBackup',
  async run({ host }, id?: unknown) {
    const harness = host.require();
    const backup = await backupFromArgs(harness, id, vscode.l10n.t('Alfred: Pin Backup'),
      vscode.l10n.t('Pick a backup to keep forever (pick a pinned one to unpin it)'));
    if (!backup) return undefined;
    const updated = setPinned(harness.stateDir, backup.id, !backup.pinned);
    void vscode.window.showInformationMessage(updated.pinned
      ? vscode.l10n.t('Backup of {0} pinned: it is kept until you unpin it.', new Date(updated.createdAt).toLocaleString())
      : vscode.l10n.t('Backup of {0} unpinned: only the newest 10 unpinned backups are kept.', new Date(updated.createdAt).toLocaleString()));
    return updated.pinned;
  },
};
