/**
 * A long-lived process (the hook server) keeps a state folder's lock between uses: the lock is not
 * taken again within the lease, another process that asks gets it once the use under way ends (one
 * that does not ask, once the lease ends), and a lease that outlived its timer (a blocked event loop,
 * a machine that slept) is never trusted.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, mock, test } from 'node:test';
import { holdLocksBetweenUses, LOCK_FILE, MAX_LEASE_MS, withLock } from '../../../../src/core/base/state/lock';
import { askHolderToLetGo, WAIT_FILE, watchForWaiters } from '../../../../src/core/base/state/lockWaiters';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-lease-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** When the lock folder was made (ns): a lock taken anew is a new folder, whatever inode it gets. */
const lockBorn = (dir: string) => fs.statSync(path.join(dir, LOCK_FILE), { bigint: true }).birthtimeNs;

afterEach(() => holdLocksBetweenUses(0));

test('within the lease the lock is kept, not taken again; after it, it is released', async () => {
  holdLocksBetweenUses(200);
  const dir = tmp();
  const first = await withLock(dir, () => lockBorn(dir));
  assert.equal(fs.existsSync(path.join(dir, LOCK_FILE)), true, 'kept between uses');
  const second = await withLock(dir, () => lockBorn(dir));
  assert.equal(second, first, 'the same lock, not a new one');
  await sleep(400);
  assert.equal(fs.existsSync(path.join(dir, LOCK_FILE)), false, 'released when the lease ran out');
});

test('without a lease (the default) the lock is released at once', async () => {
  const dir = tmp();
  await withLock(dir, () => undefined);
  assert.equal(fs.existsSync(path.join(dir, LOCK_FILE)), false);
});

test('turning leases off releases the locks held', async () => {
  holdLocksBetweenUses(500);
  const dir = tmp();
  await withLock(dir, () => undefined);
  holdLocksBetweenUses(0);
  await sleep(50);
  assert.equal(fs.existsSync(path.join(dir, LOCK_FILE)), false);
});

test('a lease whose timer could not run in time is dropped and the lock taken anew', async () => {
  holdLocksBetweenUses(100);
  const dir = tmp();
  const first = await withLock(dir, () => lockBorn(dir));
  assert.equal(await withLock(dir, () => lockBorn(dir)), first, 'a use within the lease keeps the lock');
  const until = Date.now() + 250;
  while (Date.now() < until) { /* the event loop blocked: the release timer cannot run */ }
  const after = await withLock(dir, () => lockBorn(dir));
  assert.notEqual(after, first, 'released and taken again');
});

test('a lease never outlasts its cap: the lock is taken anew after it', async () => {
  holdLocksBetweenUses(MAX_LEASE_MS);
  const dir = tmp();
  let made = 0;
  const watcher = fs.watch(dir, (_event, name) => { if (name === LOCK_FILE) made++; });
  const end = Date.now() + MAX_LEASE_MS + 400;
  while (Date.now() < end) {
    await withLock(dir, () => undefined);
    await sleep(100);
  }
  watcher.close();
  holdLocksBetweenUses(0);
  await sleep(50);
  // One lease up to the cap, then at least one new lock: the folder appeared, went, appeared.
  assert.ok(made >= 3, `lock folder events: ${made}`);
});

/** Another process taking `dir`'s lock through lock.ts (it asks), or through proper-lockfile alone (it does not); resolves when it got it. */
function otherProcess(dir: string, asks: boolean): Promise<number> {
  const take = asks
    ? `require(${JSON.stringify(path.resolve('src/core/base/state/lock.ts'))}).withLock(${JSON.stringify(dir)}, () => process.stdout.write(String(Date.now())))`
    : `require('proper-lockfile').lock(${JSON.stringify(dir)}, { lockfilePath: ${JSON.stringify(path.join(dir, LOCK_FILE))}, realpath: false, retries: { retries: 400, minTimeout: 2, maxTimeout: 30 } })
        .then((release) => { process.stdout.write(String(Date.now())); return release(); })`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', take], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  return new Promise((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve(Number(out)) : reject(new Error(`exited ${code}`)))));
}

test('another process that asks gets the lock once the use under way ends, long before the lease would', async () => {
  holdLocksBetweenUses(MAX_LEASE_MS);
  const dir = tmp();
  const usedAt = await withLock(dir, () => Date.now());
  const gotAt = await otherProcess(dir, true);
  // Its own start (Node and tsx) takes most of that time.
  assert.ok(gotAt < usedAt + MAX_LEASE_MS - 1_000, `the other process got the lock ${gotAt - usedAt} ms after our last use (the lease: ${MAX_LEASE_MS} ms)`);
  // Ours was let go: the next use takes it anew.
  const born = await withLock(dir, () => lockBorn(dir));
  assert.equal(await withLock(dir, () => lockBorn(dir)), born);
});

test('asked while the lock is kept idle, or during a use, the holder lets it go: at once, or when the use ends', async () => {
  holdLocksBetweenUses(MAX_LEASE_MS);
  const dir = tmp();
  await withLock(dir, () => undefined);
  await sleep(50);
  assert.equal(fs.existsSync(path.join(dir, LOCK_FILE)), true, 'kept between uses');
  askHolderToLetGo(dir);
  await sleep(200);
  assert.equal(fs.existsSync(path.join(dir, LOCK_FILE)), false, 'let go when asked');
  // Asked during a use (here before its lease's watch has begun): not kept after it.
  await withLock(dir, () => askHolderToLetGo(dir));
  await sleep(200);
  assert.equal(fs.existsSync(path.join(dir, LOCK_FILE)), false, 'let go after the use');
});

test('taken again before the waiter that asked had its turn, the lock is let go after that use too', async () => {
  holdLocksBetweenUses(MAX_LEASE_MS);
  const dir = tmp();
  await withLock(dir, () => undefined);
  await sleep(50);
  askHolderToLetGo(dir);
  await sleep(100);
  assert.equal(fs.existsSync(path.join(dir, LOCK_FILE)), false, 'let go when asked');
  // This process is quicker than the waiter's next try: a new lease, which the standing ask ends too.
  await withLock(dir, () => undefined);
  await sleep(100);
  assert.equal(fs.existsSync(path.join(dir, LOCK_FILE)), false, 'not kept over a standing ask');
});

test('a waiter that does not ask (an older Alfred) waits for the lease to end, then gets the lock', async () => {
  holdLocksBetweenUses(300);
  const dir = tmp();
  const usedAt = await withLock(dir, () => Date.now());
  const gotAt = await otherProcess(dir, false);
  assert.ok(gotAt >= usedAt + 250, `the other process got the lock ${gotAt - usedAt} ms after our last use, inside the lease`);
  assert.ok(gotAt <= usedAt + 5_000, `and soon after it ended (${gotAt - usedAt} ms)`);
});

test('a state folder cleared during a lease is made again, under a new lock', async () => {
  holdLocksBetweenUses(300);
  const dir = path.join(tmp(), 'state');
  await withLock(dir, () => undefined);
  fs.rmSync(dir, { recursive: true, force: true });
  const wrote = await withLock(dir, () => {
    fs.writeFileSync(path.join(dir, 'ledger.json'), '{}');
    return fs.existsSync(path.join(dir, LOCK_FILE));
  });
  assert.equal(wrote, true, 'the folder and a lock exist again');
});

test('a link planted in the wait file\'s place is not written through', () => {
  const dir = tmp();
  const target = path.join(dir, 'elsewhere');
  fs.writeFileSync(target, 'kept');
  fs.symlinkSync(target, path.join(dir, WAIT_FILE));
  askHolderToLetGo(dir);
  assert.equal(fs.readFileSync(target, 'utf8'), 'kept');
});

test('an ask made before the watch began is answered at once, and leaves no watch open', () => {
  const dir = tmp();
  askHolderToLetGo(dir);
  const watches = mock.method(fs, 'watch');
  try {
    let asked = 0;
    assert.equal(watchForWaiters(dir, Date.now(), () => asked++), undefined);
    assert.equal(asked, 1);
    const watcher = watches.mock.calls[0]!.result as fs.FSWatcher;
    // A closed watcher's close is a no-op; an open one would still hold its inotify watch.
    assert.equal((watcher as unknown as { _handle: unknown })._handle, null, 'the watch was closed');
  } finally {
    watches.mock.restore();
  }
});
