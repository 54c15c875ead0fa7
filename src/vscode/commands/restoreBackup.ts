import * as vscode from 'vscode';
import { restoreRequest } from '../../core/base/config/backups';
import { confirmAndWrite } from '../config/confirmAndWrite';
import { backupFromArgs } from '../config/pickBackup';
import type { AlfredCommand } from './command';

/** Alfred: Restore Backup — puts the files of a backup back, through the same diff, confirm and backup. */
export const restoreBackup: AlfredCommand = {
  id: 'alfred.restoreBackup',
  async run({ host }, id?: unknown) {
    const harness = host.require();
    const backup = await backupFromArgs(harness, id, vscode.l10n.t('Alfred: Restore Backup'),
      vscode.l10n.t('Pick a backup: you will see the diff before anything is written'));
    if (!backup) return false;
    const request = restoreRequest(harness.stateDir, backup.id);
    request.title = vscode.l10n.t('Restore the backup of {0} ({1})', new Date(backup.createdAt).toLocaleString(), backup.title ?? backup.reason);
    return confirmAndWrite(host, request);
  },
};
