/**
 * A cross-process exclusive lock on the state folder. The extension and every `alfred hook`
 * process share one ledger, so each read-modify-write of it runs under this lock.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lock } from 'proper-lockfile';

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

async function lockedRun<T>(dir: string, fn: () => T | Promise<T>): Promise<T> {
  let release: () => Promise<void>;
  // The folder may have been removed since stateDir() created it (a user clearing ~/.alfred).
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    release = await lock(dir, {
      lockfilePath: path.join(dir, LOCK_FILE),
      realpath: false,
      stale: LOCK_STALE_MS,
      retries: RETRIES,
      // The default throws from a timer, which would take the whole extension host down.
      onCompromised: () => undefined,
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') throw new LockTimeoutError(dir, err);
    throw err;
  }
  try {
    return await fn();
  } finally {
    // Releasing a lock that went stale and was taken over fails; there is nothing left to undo.
    await release().catch(() => undefined);
  }
}
