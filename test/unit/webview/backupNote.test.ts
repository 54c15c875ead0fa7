import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConfirmFileView, ConfirmState } from '../../../src/protocol/confirm';
import { backupNote } from '../../../webview/confirm/backupNote';

const file = (change: ConfirmFileView['change']): ConfirmFileView => ({ label: 'f', path: '/w/f', change, diff: '', added: 1, removed: 0, secret: false });
const state = (...changes: Array<ConfirmFileView['change']>): ConfirmState => ({ title: 't', reason: 'r', backupDir: '/s/backups', files: changes.map(file) });

test('the review panel promises a backup only of files that exist before the write', () => {
  assert.equal(backupNote(state('modify')), 'Nothing is written until you confirm. The previous versions are kept as a backup in /s/backups.');
  assert.equal(backupNote(state('modify', 'delete')), 'Nothing is written until you confirm. The previous versions are kept as a backup in /s/backups.');
  assert.equal(backupNote(state('create')), 'Nothing is written until you confirm. This is a new file: there is no previous version to back up.');
  assert.equal(backupNote(state('create', 'create')), 'Nothing is written until you confirm. These are new files: there is no previous version to back up.');
  assert.equal(backupNote(state('create', 'modify')), 'Nothing is written until you confirm. The previous versions of the existing files are kept as a backup in /s/backups.');
});
