import type { ConfirmState } from '../../src/protocol/confirm';
import { t } from '../shared/l10n';

/** What confirming keeps: a backup only exists for files that exist before the write. */
export function backupNote(s: ConfirmState): string {
  const created = s.files.filter((f) => f.change === 'create').length;
  if (created === 0) return t('Nothing is written until you confirm. The previous versions are kept as a backup in {0}.', s.backupDir);
  if (created < s.files.length) return t('Nothing is written until you confirm. The previous versions of the existing files are kept as a backup in {0}.', s.backupDir);
  return created === 1
    ? t('Nothing is written until you confirm. This is a new file: there is no previous version to back up.')
    : t('Nothing is written until you confirm. These are new files: there is no previous version to back up.');
}
