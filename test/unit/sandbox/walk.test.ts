import { afterEach, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { rememberReads } from '../../../src/core/base/fs/keptReads';
import { walkWorkspace } from '../../../src/core/sandbox/walk';

afterEach(() => {
  rememberReads(false);
  mock.restoreAll();
});

function workspace(): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-walk-'));
  fs.mkdirSync(path.join(ws, 'src', 'deep'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'src', 'a.ts'), '');
  fs.writeFileSync(path.join(ws, 'src', 'deep', 'b.ts'), '');
  fs.mkdirSync(path.join(ws, 'node_modules', 'x'), { recursive: true });
  // The tests trust a listing at once (a racy window of 0 ms), except one of a folder changed within the
  // same millisecond as the walk: waited out, or a first walk right after this one reads it again next time.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3);
  return ws;
}

const walk = (ws: string): string[] => {
  const seen: string[] = [];
  walkWorkspace(ws, ({ rel, dir }) => { seen.push(dir ? `${rel}/` : rel); });
  return seen.sort();
};

/** Counts the folders read from disk during `fn`. */
function readsDuring(fn: () => void): number {
  const readdir = mock.method(fs, 'readdirSync');
  fn();
  const n = readdir.mock.callCount();
  readdir.mock.restore();
  return n;
}

test('a remembered walk lists what a fresh one lists, and reads no folder again while none changed', () => {
  const ws = workspace();
  rememberReads(true, 0); // every listing counts as settled at once
  assert.deepEqual(walk(ws), ['src/', 'src/a.ts', 'src/deep/', 'src/deep/b.ts']);
  assert.equal(readsDuring(() => assert.deepEqual(walk(ws), ['src/', 'src/a.ts', 'src/deep/', 'src/deep/b.ts'])), 0);
});

test('an entry added, removed or renamed is seen on the next walk; only the folder that changed is read', () => {
  const ws = workspace();
  rememberReads(true, 0);
  walk(ws);
  fs.writeFileSync(path.join(ws, 'src', 'deep', 'evil.code-workspace'), '{}');
  assert.equal(readsDuring(() => assert.ok(walk(ws).includes('src/deep/evil.code-workspace'))), 1);
  fs.renameSync(path.join(ws, 'src', 'a.ts'), path.join(ws, 'src', 'a.test.ts'));
  assert.deepEqual(walk(ws).filter((p) => p.startsWith('src/a')), ['src/a.test.ts']);
  fs.rmSync(path.join(ws, 'src', 'deep', 'b.ts'));
  assert.equal(walk(ws).includes('src/deep/b.ts'), false);
});

test('a folder whose mtime was set back after a change is read again (its ctime moved)', () => {
  const ws = workspace();
  rememberReads(true, 0);
  const deep = path.join(ws, 'src', 'deep');
  const second = Math.floor(Date.now() / 1000) - 60; // a whole second: set back exactly below
  fs.utimesSync(deep, second, second);
  walk(ws);
  const before = fs.statSync(deep, { bigint: true });
  fs.writeFileSync(path.join(deep, 'planted.code-workspace'), '{}');
  fs.utimesSync(deep, second, second);
  assert.equal(fs.statSync(deep, { bigint: true }).mtimeNs, before.mtimeNs, 'the mtime is back');
  assert.ok(walk(ws).includes('src/deep/planted.code-workspace'));
});

test('a folder replaced by another of the same name is read again; a file turned into a folder is walked into', () => {
  const ws = workspace();
  rememberReads(true, 0);
  walk(ws);
  fs.rmSync(path.join(ws, 'src', 'deep'), { recursive: true });
  fs.mkdirSync(path.join(ws, 'src', 'deep'));
  fs.writeFileSync(path.join(ws, 'src', 'deep', 'c.ts'), '');
  fs.rmSync(path.join(ws, 'src', 'a.ts'));
  fs.mkdirSync(path.join(ws, 'src', 'a.ts'));
  fs.writeFileSync(path.join(ws, 'src', 'a.ts', 'inner.code-workspace'), '');
  assert.deepEqual(walk(ws), ['src/', 'src/a.ts/', 'src/a.ts/inner.code-workspace', 'src/deep/', 'src/deep/c.ts']);
});

test('a folder that changed shortly before it was read is read again next time, even if it did not change since', () => {
  const ws = workspace();
  rememberReads(true); // the default: a change within 2 s of a read may share its timestamp
  walk(ws);
  assert.equal(readsDuring(() => walk(ws)), 3, 'the folders were made just now: none is trusted yet (node_modules is never read)');
});

test('off (the default), every walk reads every folder', () => {
  const ws = workspace();
  walk(ws);
  assert.equal(readsDuring(() => walk(ws)), 3);
});
