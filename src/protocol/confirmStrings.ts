/** Every English string the confirmation panel shows; the host translates them (see dashboardStrings.ts). */
export const CONFIRM_STRINGS: readonly string[] = [
  'Review changes', 'Confirm', 'Cancel', 'Open in diff editor', 'Loading…',
  'new file', 'changed', 'deleted', 'secrets hidden, written readable by you only',
  'Nothing is written until you confirm. The previous versions are kept as a backup in {0}.',
  'Nothing is written until you confirm. The previous versions of the existing files are kept as a backup in {0}.',
  'Nothing is written until you confirm. This is a new file: there is no previous version to back up.',
  'Nothing is written until you confirm. These are new files: there is no previous version to back up.',
  'Why: {0}', '{0} lines added, {1} removed', 'Files to change', 'Diff of {0}',
];
