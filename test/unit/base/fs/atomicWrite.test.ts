import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { atomicWrite, atomicWriteAsync, renameRetrying, tempPathFor } from '../../../../src/core/base/fs/atomicWrite';

const tempDir = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-fs-'));
const errno = (code: string): NodeJS.ErrnoException => Object.assign(new Error(code), { code });

test('atomicWrite replaces a file whole, with exactly the mode asked for, and leaves no temporary file', { skip: process.platform === 'win32' }, () => {
  const dir = tempDir();
  const file = path.join(dir, 'state.json');
  fs.writeFileSync(file, 'old', { mode: 0o644 });
  const umask = process.umask(0o077);
  try {
    atomicWrite(file, 'new');
    assert.equal(fs.readFileSync(file, 'utf8'), 'new');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    atomicWrite(file, Buffer.from('script'), { mode: 0o755, fsync: false });
    assert.equal(fs.statSync(file).mode & 0o777, 0o755, 'not reduced by the umask');
  } finally {
    process.umask(umask);
  }
  assert.equal(fs.readFileSync(file, 'utf8'), 'script');
  assert.deepEqual(fs.readdirSync(dir), ['state.json']);
});

test('a failed rename leaves the target as it was and no temporary file', () => {
  const dir = tempDir();
  const target = path.join(dir, 'taken');
  fs.mkdirSync(path.join(target, 'inside'), { recursive: true }); // a non-empty folder cannot be renamed over
  assert.throws(() => atomicWrite(target, 'x'), (err: NodeJS.ErrnoException) => ['EISDIR', 'ENOTEMPTY', 'EEXIST', 'EPERM'].includes(err.code ?? ''));
  assert.deepEqual(fs.readdirSync(dir), ['taken']);
  assert.deepEqual(fs.readdirSync(target), ['inside']);
});

test('atomicWriteAsync replaces a file whole, with exactly the mode asked for, and leaves no temporary file', { skip: process.platform === 'win32' }, async () => {
  const dir = tempDir();
  const file = path.join(dir, 'state.json');
  fs.writeFileSync(file, 'old', { mode: 0o644 });
  const umask = process.umask(0o077);
  try {
    await atomicWriteAsync(file, 'new', { fsync: false });
    assert.equal(fs.readFileSync(file, 'utf8'), 'new');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    await atomicWriteAsync(file, Buffer.from('script'), { mode: 0o755 });
    assert.equal(fs.statSync(file).mode & 0o777, 0o755, 'not reduced by the umask');
  } finally {
    process.umask(umask);
  }
  assert.equal(fs.readFileSync(file, 'utf8'), 'script');
  assert.deepEqual(fs.readdirSync(dir), ['state.json']);
});

test('a failed asynchronous rename leaves the target as it was and no temporary file', async () => {
  const dir = tempDir();
  const target = path.join(dir, 'taken');
  fs.mkdirSync(path.join(target, 'inside'), { recursive: true });
  await assert.rejects(atomicWriteAsync(target, 'x'), (err: NodeJS.ErrnoException) => ['EISDIR', 'ENOTEMPTY', 'EEXIST', 'EPERM'].includes(err.code ?? ''));
  assert.deepEqual(fs.readdirSync(dir), ['taken']);
  assert.deepEqual(fs.readdirSync(target), ['inside']);
});

test('temporary names are beside the file, hidden, and never repeat', () => {
  const names = new Set(Array.from({ length: 1000 }, () => tempPathFor('/a/b/ledger.json')));
  assert.equal(names.size, 1000);
  for (const n of names) assert.match(n, /^\/a\/b\/\.ledger\.json\.\d+\.[0-9a-z]+\.tmp$/);
});

test('on Windows a rename refused for a moment (EBUSY, EPERM, EACCES) is retried until it passes', () => {
  let calls = 0;
  renameRetrying('a', 'b', () => {
    calls++;
    if (calls <= 3) throw errno(['EBUSY', 'EPERM', 'EACCES'][calls - 1]!);
  }, 'win32');
  assert.equal(calls, 4);
});

test('a rename is not retried for other errors, nor on other platforms, nor for ever', () => {
  const counting = (code: string) => {
    const c = { calls: 0, rename: () => { c.calls++; throw errno(code); } };
    return c;
  };
  const enoent = counting('ENOENT');
  assert.throws(() => renameRetrying('a', 'b', enoent.rename, 'win32'), /ENOENT/);
  assert.equal(enoent.calls, 1);
  const linux = counting('EBUSY');
  assert.throws(() => renameRetrying('a', 'b', linux.rename, 'linux'), /EBUSY/);
  assert.equal(linux.calls, 1);
  const stuck = counting('EPERM');
  assert.throws(() => renameRetrying('a', 'b', stuck.rename, 'win32'), /EPERM/);
  assert.equal(stuck.calls, 9, 'eight retries, then the error');
});
