/**
 * How a process that finds the state lock taken tells a holder keeping it between uses (the hook
 * server's lease, lock.ts) to let it go: it writes `ledger.lock.wait` beside the lock, which the
 * holder watches. Taking the lock is a mkdir and a stat, and its release an rmdir, journaled metadata
 * writes of a few tenths of a millisecond where a hook call runs: kept while nobody else asks, the
 * lock costs an agent's tool calls nothing. A waiter that cannot write the file (or a holder that
 * misses it) waits for the lease's cap instead, as before.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const WAIT_FILE = 'ledger.lock.wait';
/** An ask this long before a lease began is taken as still standing (its waiter may not have had its turn). */
const RECENT_ASK_MS = 1_000;

// Not on Windows (0 there). A link planted in the file's place is not written through.
const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/** Asks whoever keeps `dir`'s lock between uses to let it go. Best effort. */
export function askHolderToLetGo(dir: string): void {
  try {
    const fd = fs.openSync(path.join(dir, WAIT_FILE), fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | NO_FOLLOW, 0o600);
    try {
      fs.writeSync(fd, `${process.pid}\n`);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // The lease's cap still ends the wait.
  }
}

/**
 * Calls `wanted` once another process asks for `dir`'s lock, held since `since` (ms): at once when one
 * asked since shortly before then (before this watch began), else on its next ask. Returns the function
 * that stops watching; undefined when `wanted` was called at once, or the file cannot be watched (the
 * lease's cap then ends any wait).
 */
export function watchForWaiters(dir: string, since: number, wanted: () => void): (() => void) | undefined {
  const file = path.join(dir, WAIT_FILE);
  let watcher: fs.FSWatcher;
  try {
    // The file must exist to be watched; appending nothing leaves a waiter's last ask in place.
    fs.closeSync(fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_APPEND | NO_FOLLOW, 0o600));
    watcher = fs.watch(file, { persistent: false }, () => wanted());
  } catch {
    return undefined;
  }
  watcher.on('error', () => watcher.close());
  // An ask since a moment before the lock was taken: the file's time tells (looked at once the watch
  // is on, so no ask falls between). A waiter asks once, then retries for seconds; one that asked of
  // the lease before this one may still be waiting. Answered at once, the watch is not needed.
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(file, { throwIfNoEntry: false });
  } catch {
    st = undefined;
  }
  if (st && st.mtimeMs >= since - RECENT_ASK_MS && st.size > 0) {
    watcher.close();
    wanted();
    return undefined;
  }
  return () => watcher.close();
}
