import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LOCK_FILE, withLock } from '../../../../src/core/base/state/lock';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-lock-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('holders never overlap and the lock is released afterwards', async () => {
  const dir = tmp();
  let inside = 0;
  let maxInside = 0;
  await Promise.all(Array.from({ length: 10 }, () => withLock(dir, async () => {
    inside++;
    maxInside = Math.max(maxInside, inside);
    await sleep(2);
    inside--;
  })));
  assert.equal(maxInside, 1);
  assert.equal(fs.existsSync(path.join(dir, LOCK_FILE)), false);
});

test('a failing fn releases the lock and rethrows', async () => {
  const dir = tmp();
  await assert.rejects(withLock(dir, () => { throw new Error('inside'); }), /inside/);
  assert.equal(await withLock(dir, () => 42), 42);
});

test('a stale lock left by a crashed process is taken over', async () => {
  const dir = tmp();
  const lockDir = path.join(dir, LOCK_FILE);
  fs.mkdirSync(lockDir);
  const old = new Date(Date.now() - 60_000);
  fs.utimesSync(lockDir, old, old);
  assert.equal(await withLock(dir, () => 'ok'), 'ok');
});
