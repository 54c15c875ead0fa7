import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { applyPlan, configWrittenEvent, StalePlanError } from '../../../../src/core/base/config/apply';
import { WriteFailedError } from '../../../../src/core/base/config/atomicWrite';
import { listBackups, readBackupFiles, restoreRequest } from '../../../../src/core/base/config/backups';
import { nodeConfigFs, type ConfigFs } from '../../../../src/core/base/config/fsOps';
import { planWrite } from '../../../../src/core/base/config/plan';
import { listing, sandbox } from './helpers';

const read = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : null);
const mode = (f: string) => fs.statSync(f).mode & 0o777;

test('a confirmed plan backs up the old files and writes the new ones, keeping each file mode', () => {
  const s = sandbox();
  const a = s.file('a.toml', 'a = 1\n', 0o640);
  const b = s.file('sub/b.toml');
  const plan = planWrite({ reason: 'test write', files: [{ path: a, newText: 'a = 2\n' }, { path: b, newText: 'b = 1\n' }] });
  const result = applyPlan(plan, { stateDir: s.stateDir });
  assert.equal(read(a), 'a = 2\n');
  assert.equal(read(b), 'b = 1\n');
  assert.equal(mode(a), 0o640);
  assert.equal(mode(b), 0o644);
  assert.deepEqual(readBackupFiles(s.stateDir, result.backup.id).map((f) => [f.path, f.text]), [[a, 'a = 1\n'], [b, null]]);
  assert.deepEqual(listing(s.dir), ['a.toml', 'sub'], 'no temporary file left behind');
  assert.deepEqual(configWrittenEvent(plan, result), {
    type: 'ConfigWritten', reason: 'test write', backup: result.backup.id,
    files: [{ path: a, change: 'modify' }, { path: b, change: 'create' }],
  });
});

test('secret-bearing files are written 0600', () => {
  const s = sandbox();
  const env = s.file('.env', 'A=1\n', 0o644);
  applyPlan(planWrite({ reason: 'env', files: [{ path: env, newText: 'A=2\n', secret: true }] }), { stateDir: s.stateDir });
  assert.equal(mode(env), 0o600);
});

test('a rename failing half-way leaves every file old: the ones renamed are rolled back from the backup', () => {
  const s = sandbox();
  const a = s.file('a.toml', 'old a\n');
  const b = s.file('b.toml', 'old b\n');
  const c = s.file('c.toml');
  const renamed: string[] = [];
  const failing: ConfigFs = {
    ...nodeConfigFs,
    rename(from, to) {
      if (to === b) throw Object.assign(new Error('EIO: simulated failure'), { code: 'EIO' });
      nodeConfigFs.rename(from, to);
      renamed.push(to);
    },
  };
  const plan = planWrite({ reason: 'x', files: [{ path: a, newText: 'new a\n' }, { path: b, newText: 'new b\n' }, { path: c, newText: 'new c\n' }] });
  assert.throws(() => applyPlan(plan, { stateDir: s.stateDir, fs: failing }), (err: unknown) => {
    assert.ok(err instanceof WriteFailedError);
    assert.equal(err.file, b);
    assert.equal(err.unchanged, true);
    assert.match(err.message, /could not write .*b\.toml: EIO: simulated failure; the files already written were restored/);
    return true;
  });
  assert.equal(renamed[0], a, 'a was replaced before b failed');
  assert.deepEqual([read(a), read(b), read(c)], ['old a\n', 'old b\n', null]);
  assert.deepEqual(listing(s.dir), ['a.toml', 'b.toml'], 'temporary files removed');
  assert.equal(listBackups(s.stateDir).backups.length, 1, 'the backup stays, so the user can still go back');
});

test('a failure while writing the temporary files changes no target', () => {
  const s = sandbox();
  const a = s.file('a.toml', 'old a\n');
  const b = s.file('b.toml', 'old b\n');
  let writes = 0;
  const diskFull: ConfigFs = {
    ...nodeConfigFs,
    writeDurable(file, text, m) {
      if (++writes === 2) {
        fs.writeFileSync(file, text.slice(0, 2)); // a torn temporary file
        throw new Error('ENOSPC: no space left on device');
      }
      nodeConfigFs.writeDurable(file, text, m);
    },
  };
  const plan = planWrite({ reason: 'x', files: [{ path: a, newText: 'new a\n' }, { path: b, newText: 'new b\n' }] });
  assert.throws(() => applyPlan(plan, { stateDir: s.stateDir, fs: diskFull }), /could not write .*b\.toml: ENOSPC.*no file was changed/);
  assert.deepEqual([read(a), read(b)], ['old a\n', 'old b\n']);
  assert.deepEqual(listing(s.dir), ['a.toml', 'b.toml']);
});

test('a crash between writing and renaming leaves the target whole (the old text), never truncated', () => {
  const s = sandbox();
  const a = s.file('a.toml', 'old a\n');
  const crash: ConfigFs = { ...nodeConfigFs, rename() { throw new Error('process killed'); } };
  const plan = planWrite({ reason: 'x', files: [{ path: a, newText: 'new a, much longer than before\n' }] });
  assert.throws(() => applyPlan(plan, { stateDir: s.stateDir, fs: crash }), /process killed/);
  assert.equal(read(a), 'old a\n');
});

test('a file changed after the diff was shown is not overwritten', () => {
  const s = sandbox();
  const a = s.file('a.toml', 'v1\n');
  const plan = planWrite({ reason: 'x', files: [{ path: a, newText: 'v2\n' }] });
  fs.writeFileSync(a, 'edited meanwhile\n');
  assert.throws(() => applyPlan(plan, { stateDir: s.stateDir }), StalePlanError);
  assert.equal(read(a), 'edited meanwhile\n');
  assert.equal(listBackups(s.stateDir).backups.length, 0);
});

test('restoring a backup goes through the same plan and puts old files back (and removes created ones)', () => {
  const s = sandbox();
  const a = s.file('a.toml', 'v1\n', 0o600);
  const b = s.file('b.toml');
  const first = applyPlan(planWrite({ reason: 'edit', files: [{ path: a, newText: 'v2\n' }, { path: b, newText: 'new\n' }] }), { stateDir: s.stateDir });
  const restore = planWrite(restoreRequest(s.stateDir, first.backup.id));
  assert.deepEqual(restore.files.map((f) => f.change), ['modify', 'delete']);
  const second = applyPlan(restore, { stateDir: s.stateDir });
  assert.deepEqual([read(a), read(b)], ['v1\n', null]);
  assert.equal(mode(a), 0o600);
  // The restore itself was backed up, so it can be undone too.
  assert.deepEqual(readBackupFiles(s.stateDir, second.backup.id).map((f) => f.text), ['v2\n', 'new\n']);
});

test('a write through a symbolic link replaces the linked file and keeps the link', () => {
  const s = sandbox();
  const real = s.file('real.toml', 'v1\n');
  const link = s.file('link.toml');
  fs.symlinkSync(real, link);
  applyPlan(planWrite({ reason: 'x', files: [{ path: link, newText: 'v2\n' }] }), { stateDir: s.stateDir });
  assert.equal(fs.lstatSync(link).isSymbolicLink(), true);
  assert.equal(read(real), 'v2\n');
});
