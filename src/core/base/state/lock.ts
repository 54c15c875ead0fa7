/**
 * A cross-process exclusive lock on the state folder. The extension and every `alfred hook`
 * process share one ledger, so each read-modify-write of it runs under this lock.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lock } from 'proper-lockfile';
import { askHolderToLetGo, watchForWaiters } from './lockWaiters';

export const LOCK_FILE = 'ledger.lock';
/** A holder that stopped refreshing the lock (crashed) loses it after this long. */
export const LOCK_STALE_MS = 10_000;

// Short waits keep a hook call fast under contention; the cap (~12 s of retries) outlasts the stale
// period, so a waiter takes over a crashed holder's lock instead of giving up just before it could.
const RETRIES = { retries: 400, minTimeout: 2, maxTimeout: 30, factor: 1.5, randomize: true };

export class LockTimeoutError extends Error {
  constructor(dir: string, cause: unknown) {
    super(`Alfred could not lock its state folder ${dir}: another process held it too long`, { cause });
    this.name = 'LockTimeoutError';
  }
}

type Callback<T> = (err: NodeJS.ErrnoException | null, value?: T) => void;
/** Runs a synchronous file operation and answers the callback on the next tick, as an async one would. */
function settle<T>(callback: Callback<T>, op: () => T): void {
  let value: T | undefined;
  let error: NodeJS.ErrnoException | null = null;
  try {
    value = op();
  } catch (err) {
    error = err as NodeJS.ErrnoException;
  }
  process.nextTick(callback, error, value);
}

/**
 * The file functions proper-lockfile calls, done synchronously: each is one system call on a local
 * folder, and sent through libuv's thread pool, as the asynchronous ones are, it costs a thread hop
 * and back (up to a millisecond on a cold machine) for every lock a hook call takes.
 */
const SYNC_FS = {
  mkdir: (p: string, cb: Callback<void>) => settle(cb, () => fs.mkdirSync(p)),
  rmdir: (p: string, cb: Callback<void>) => settle(cb, () => fs.rmdirSync(p)),
  stat: (p: string, cb: Callback<fs.Stats>) => settle(cb, () => fs.statSync(p)),
  utimes: (p: string, atime: Date, mtime: Date, cb: Callback<void>) => settle(cb, () => fs.utimesSync(p, atime, mtime)),
  realpath: (p: string, cb: Callback<string>) => settle(cb, () => fs.realpathSync(p)),
  rmdirSync: (p: string) => fs.rmdirSync(p),
};

// Callers in one process queue here instead of polling the lock file against each other.
const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` while holding the lock on `dir` (created when missing). Not re-entrant: never call
 * `withLock` on the same folder from inside `fn`.
 */
export function withLock<T>(dir: string, fn: () => T | Promise<T>): Promise<T> {
  const key = path.resolve(dir);
  const prev = queues.get(key) ?? Promise.resolve();
  const run = prev.then(() => lockedRun(key, fn));
  const tail = run.catch(() => undefined);
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}

/**
 * A lock this process keeps between uses (see holdLocksBetweenUses). `lastUse` tells a lease whose
 * release timer never ran in time (a blocked event loop, a machine that slept): it is not trusted.
 */
interface Lease {
  release: () => Promise<void>;
  since: number;
  lastUse: number;
  lost: boolean;
  /** Another process asked for the lock (lockWaiters.ts): let go after the current use. */
  wanted: boolean;
  timer?: NodeJS.Timeout;
  stopWatching?: () => void;
}

/** Locks kept between uses. */
const leases = new Map<string, Lease>();
let leaseMs = 0;
/**
 * A lease never outlasts this: a waiter that does not ask (lockWaiters.ts) gets its turn, within its
 * retries (about 12 s) and before the lock would look stale (LOCK_STALE_MS).
 */
export const MAX_LEASE_MS = 5_000;

/**
 * For a long-lived process that charges on every tool call (the hook server): keep a state folder's
 * lock for `ms` after each use instead of releasing it at once. Taking the lock is a mkdir and its
 * release an rmdir, each a journaled metadata write: on some machines they cost milliseconds, and a
 * hook call takes the lock two or three times. Another process that wants the lock asks for it
 * (lockWaiters.ts) and gets it once the use under way ends; one that does not ask waits at most `ms`
 * (never more than MAX_LEASE_MS in all) longer. 0 (the default) releases at once.
 */
export function holdLocksBetweenUses(ms: number): void {
  leaseMs = Math.max(0, Math.min(ms, MAX_LEASE_MS));
  if (leaseMs === 0) void releaseKeptLocks();
}

/** Stops keeping locks: each kept one is released; resolves once all are. */
export async function releaseKeptLocks(): Promise<void> {
  leaseMs = 0;
  await Promise.all([...leases].map(([dir, lease]) => drop(dir, lease)));
}

/**
 * Work the holder of a folder's lock left for later (deferUntilRelease): done on the event loop's
 * next turn after the use, or before the lock is let go or used again, whichever comes first.
 */
const unfinished = new Map<string, Array<() => void>>();
/** Folders whose lock this process is using now (inside withLock's `fn`). */
const inUse = new Set<string>();

/**
 * For work under the lock that need not hold up the caller's answer (the hook server's ledger write):
 * taken (true) while this process keeps its locks between uses, to be done once the current turn's
 * work, the answer included, is out, and always before the lock is let go. False: do it now. A
 * failure of the work is its own to handle; here it is dropped.
 */
export function deferUntilRelease(dir: string, work: () => void): boolean {
  const key = path.resolve(dir);
  if (leaseMs === 0 || !inUse.has(key)) return false;
  const list = unfinished.get(key);
  if (list) list.push(work);
  else unfinished.set(key, [work]);
  if (!finishesOnExit) {
    // Before proper-lockfile's own exit handler lets the locks go (signal-exit runs after 'exit' listeners).
    process.once('exit', () => [...unfinished.keys()].forEach(finishUnfinished));
    finishesOnExit = true;
  }
  return true;
}
let finishesOnExit = false;

function finishUnfinished(dir: string): void {
  const list = unfinished.get(dir);
  if (!list) return;
  unfinished.delete(dir);
  for (const work of list) {
    try {
      work();
    } catch {
      // The ledger write's failure: the next reader catches up from the log (ledgerFormat.writeLedger).
    }
  }
}

function drop(dir: string, lease: Lease): Promise<void> {
  finishUnfinished(dir);
  lease.stopWatching?.();
  clearTimeout(lease.timer);
  if (leases.get(dir) === lease) leases.delete(dir);
  // Releasing a lock that went stale and was taken over fails; there is nothing left to undo.
  return lease.release().catch(() => undefined);
}

async function acquire(dir: string): Promise<Lease> {
  const now = Date.now();
  const lease: Lease = { release: () => Promise.resolve(), since: now, lastUse: now, lost: false, wanted: false };
  const options = {
    lockfilePath: path.join(dir, LOCK_FILE),
    realpath: false,
    fs: SYNC_FS as unknown as typeof fs,
    stale: LOCK_STALE_MS,
    // The default throws from a timer, which would take the whole extension host down.
    onCompromised: () => {
      lease.lost = true;
    },
  };
  const locked = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ELOCKED';
  // Once without retries first: the retry schedule (400 waits, computed and copied when it is made,
  // 0.05 to 0.15 ms) is wasted on a free lock, and a lock is free nearly always.
  const take = () => lock(dir, { ...options, retries: 0 }).catch(async (err: unknown) => {
    if (!locked(err)) throw err;
    askHolderToLetGo(dir);
    return lock(dir, { ...options, retries: RETRIES });
  });
  try {
    lease.release = await take().catch((err: unknown) => {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      // The folder was removed since stateDir() made it (a user clearing ~/.alfred): made again.
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      return take();
    });
  } catch (err) {
    if (locked(err)) throw new LockTimeoutError(dir, err);
    throw err;
  }
  return lease;
}

/** The lease this process still holds on `dir`, when it can be trusted; else undefined (and it is dropped). */
async function keptLease(dir: string): Promise<Lease | undefined> {
  const lease = leases.get(dir);
  if (!lease) return undefined;
  clearTimeout(lease.timer);
  const now = Date.now();
  // The lock folder gone means the state folder was cleared meanwhile: take the lock anew (and make the folder).
  const fresh = !lease.lost && !lease.wanted && now - lease.lastUse <= leaseMs + 50 && now - lease.since <= MAX_LEASE_MS;
  if (fresh && fs.existsSync(path.join(dir, LOCK_FILE))) return lease;
  await drop(dir, lease);
  return undefined;
}

async function lockedRun<T>(dir: string, fn: () => T | Promise<T>): Promise<T> {
  const lease = (await keptLease(dir)) ?? (await acquire(dir));
  leases.delete(dir);
  finishUnfinished(dir);
  inUse.add(dir);
  try {
    return await fn();
  } finally {
    inUse.delete(dir);
    lease.lastUse = Date.now();
    if (leaseMs > 0 && !lease.lost && !lease.wanted && lease.lastUse - lease.since < MAX_LEASE_MS) {
      leases.set(dir, lease);
      lease.timer = setTimeout(() => void drop(dir, lease), leaseMs);
      lease.timer.unref();
      // After the answer: the write left for later, and (once a lease) the watch for other processes asking.
      setImmediate(() => {
        finishUnfinished(dir);
        if (leases.get(dir) === lease && !lease.stopWatching) {
          lease.stopWatching = watchForWaiters(dir, lease.since, () => {
            lease.wanted = true;
            if (leases.get(dir) === lease) void drop(dir, lease);
          });
        }
      });
    } else {
      await drop(dir, lease);
    }
  }
}
