import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import {
  backupsDir, createBackup, getBackup, listBackups, pruneBackups, readBackupFiles, restoreRequest, setPinned,
} from '../../../../src/core/base/config/backups';
import { sandbox } from './helpers';

const at = (minute: number) => new Date(Date.UTC(2025, 0, 2, 3, minute));

test('a backup stores each previous file with a manifest: files, time, reason', () => {
  const s = sandbox();
  const existing = s.file('a.toml', 'old\n', 0o640);
  const absent = s.file('b.toml');
  const m = createBackup(s.stateDir, { reason: 'role editor', title: 'Save role a', files: [{ path: existing, text: 'old\n', mode: 0o640 }, { path: absent, text: null }] }, { now: at(0) });
  assert.equal(m.createdAt, '2025-01-02T03:00:00.000Z');
  assert.equal(m.reason, 'role editor');
  assert.equal(m.pinned, false);
  assert.deepEqual(m.files.map((f) => [f.path, f.existed, f.mode]), [[existing, true, 0o640], [absent, false, undefined]]);
  const dir = path.join(backupsDir(s.stateDir), m.id);
  assert.equal(fs.statSync(path.join(dir, 'manifest.json')).mode & 0o777, 0o600);
  assert.deepEqual(getBackup(s.stateDir, m.id), m);
  assert.deepEqual(readBackupFiles(s.stateDir, m.id), [
    { path: existing, text: 'old\n', mode: 0o640, secret: false },
    { path: absent, text: null, secret: false },
  ]);
});

test('the newest 10 unpinned backups are kept; pinned ones are kept forever', () => {
  const s = sandbox();
  const f = s.file('x.toml');
  const make = (minute: number) => createBackup(s.stateDir, { reason: `r${minute}`, files: [{ path: f, text: `v${minute}` }] }, { now: at(minute) });
  const first = make(0);
  setPinned(s.stateDir, first.id, true);
  const ids = [first.id];
  for (let i = 1; i <= 12; i++) ids.push(make(i).id);
  const kept = listBackups(s.stateDir).backups;
  // Newest first: minutes 12..3 unpinned, then the pinned one from minute 0.
  assert.deepEqual(kept.map((b) => b.reason), ['r12', 'r11', 'r10', 'r9', 'r8', 'r7', 'r6', 'r5', 'r4', 'r3', 'r0']);
  assert.equal(kept.at(-1)!.pinned, true);
  assert.equal(fs.existsSync(path.join(backupsDir(s.stateDir), ids[1]!)), false, 'the oldest unpinned one is deleted');
  assert.equal(readBackupFiles(s.stateDir, first.id)[0]!.text, 'v0');
  // Unpinning makes it an ordinary old backup again, pruned at once.
  setPinned(s.stateDir, first.id, false);
  assert.equal(listBackups(s.stateDir).backups.some((b) => b.id === first.id), false);
  assert.deepEqual(pruneBackups(s.stateDir), []);
});

test('a corrupt manifest is reported with its path and skipped; half-written backups are not listed', () => {
  const s = sandbox();
  const ok = createBackup(s.stateDir, { reason: 'ok', files: [] });
  const bad = path.join(backupsDir(s.stateDir), '20200101T000000000Z-bad');
  fs.mkdirSync(bad);
  fs.writeFileSync(path.join(bad, 'manifest.json'), '{not json');
  fs.mkdirSync(path.join(backupsDir(s.stateDir), '.partial-x'));
  const { backups, problems } = listBackups(s.stateDir);
  assert.deepEqual(backups.map((b) => b.id), [ok.id]);
  assert.equal(problems.length, 1);
  assert.match(problems[0]!, /20200101T000000000Z-bad\/manifest\.json: not valid JSON/);
  assert.throws(() => getBackup(s.stateDir, '../etc'), /not a backup id/);
});

test('a restore request puts every file back, deleting the ones that did not exist', () => {
  const s = sandbox();
  const a = s.file('a.toml');
  const b = s.file('b.toml');
  const m = createBackup(s.stateDir, { reason: 'x', files: [{ path: a, text: 'A\n' }, { path: b, text: null, secret: true }] });
  const req = restoreRequest(s.stateDir, m.id);
  assert.deepEqual(req.files, [{ path: a, newText: 'A\n', secret: false }, { path: b, newText: null, secret: true }]);
  assert.equal(req.reason, `restore backup ${m.id}`);
});
