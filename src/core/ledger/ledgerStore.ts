/**
 * Transactions on the ledger: under the state lock, read it (caught up with the log), let the caller
 * change it and return events, append those to the log, write the ledger.
 */
import * as path from 'node:path';
import { newEventId, nowIso } from '../base/events/ids';
import { appendEvents, countLines } from '../base/events/append';
import { EVENTS_FILE } from '../base/events/format';
import type { AlfredEvent, NewEvent } from '../base/events/types';
import { catchUp, continueLogEnd, foldLedger, settleAppend } from './ledgerFold';
import { ledgerBackendOf, ONLINE, type RunOptions, type TransactFn, type TransactResult } from './ledgerBackend';
import { newLedger, readLedgerFile, writeLedger, type Ledger } from './ledgerFormat';
import { deferUntilRelease, withLock } from '../base/state/lock';

/**
 * Reads the ledger, caught up with the log; rebuilt from the log when it is missing or corrupt. Call
 * under the lock.
 */
async function loadLedger(dir: string, problems: string[]): Promise<Ledger | undefined> {
  const { ledger, problem } = readLedgerFile(dir);
  if (ledger) return catchUp(dir, ledger);
  if (problem) problems.push(`${problem}; rebuilt from the event log`);
  return foldLedger(dir);
}

/** An event as the log holds it: its id, the batch's timestamp, the ledger's session and role. */
export function complete(e: NewEvent, ledger: Ledger, ts: string): AlfredEvent {
  const { type, id: _id, ts: _ts, session: _s, role: _r, ...payload } = e;
  return { id: newEventId(), ts, type, session: ledger.session, role: ledger.role, ...payload };
}

/**
 * The ledger a transaction works on, from the one before it (`prev`, undefined: none yet), and the
 * events that open it: a new session at a reset (BudgetReset) or when the role is not `roleName`
 * (RoleChanged, except for the very first); `prev` itself otherwise. Every backend opens sessions here.
 */
export function openSession(prev: Ledger | undefined, roleName: string, ts: string, lines: () => number, resetReason?: string): { ledger: Ledger; opening: NewEvent[] } {
  const opening: NewEvent[] = [];
  if (resetReason === undefined && prev && prev.role === roleName) return { ledger: prev, opening };
  const ledger = newLedger(roleName, lines(), ts);
  continueLogEnd(ledger, prev);
  if (resetReason !== undefined) {
    opening.push({ type: 'BudgetReset', reason: resetReason, previousSession: prev?.session, previousRole: prev?.role, previousUsage: prev?.usage });
  } else if (prev) {
    opening.push({ type: 'RoleChanged', from: prev.role, to: roleName, previousSession: prev.session });
  }
  return { ledger, opening };
}

function run<T>(dir: string, roleName: string, fn: TransactFn<T>, options: RunOptions = {}): Promise<TransactResult<T>> {
  const backend = ledgerBackendOf(dir);
  return backend ? backend.run(dir, roleName, fn, options) : runOnFiles(dir, roleName, fn, options.resetReason);
}

/** The file transaction, the default backend: under the state folder's lock. */
export function runOnFiles<T>(dir: string, roleName: string, fn: TransactFn<T>, resetReason?: string): Promise<TransactResult<T>> {
  return withLock(dir, () => fileTransaction(dir, roleName, fn, resetReason));
}

/**
 * The file transaction's body; call under the lock. Also the local copy another backend falls back
 * on when it cannot be reached: `context` then says so to `fn`, and `beforeAppend` is given the
 * completed events before they are appended (kept to send later first, so a crash never loses them).
 */
export async function fileTransaction<T>(
  dir: string, roleName: string, fn: TransactFn<T>, resetReason?: string, context = ONLINE, beforeAppend?: (events: AlfredEvent[]) => void,
): Promise<TransactResult<T>> {
  const problems: string[] = [];
  const prev = await loadLedger(dir, problems);
  // One timestamp for the batch, so a new session's startedAt equals its first event's ts (and fold agrees).
  const ts = nowIso();
  const lines = () => prev?.eventLines ?? countLines(path.join(dir, EVENTS_FILE));
  const opened = openSession(prev, roleName, ts, lines, resetReason);
  let ledger = opened.ledger;
  const opening = opened.opening;
  const { events, result } = await fn(ledger, context);
  // Another writer may have appended since the load although the lock is held: proper-lockfile's
  // takeover of a dead holder's lock (stat, rmdir, mkdir) can hand it to two waiters at once. What
  // they appended is folded in now, and anything they append around our own batch after it.
  if (prev) ledger = await catchUp(dir, ledger);
  const all = [...opening, ...events].map((e) => complete(e, ledger, ts));
  beforeAppend?.(all);
  ledger = await settleAppend(dir, ledger, appendEvents(dir, all, ledger.eventLines), all);
  // Written before the lock is let go, even under the hook server's lease (where it waits until the
  // answer is out): readers without the lock (status bars, `alfred budget`, other windows) find the
  // newest ledger on disk once the lock is free, and in this process at once.
  writeLedger(dir, ledger, (write) => deferUntilRelease(dir, write));
  return { result, events: all, ledger, problems };
}

/**
 * The one way to change the ledger: under the lock, read it (a new session when there is none or
 * its role is not `roleName`, with a `RoleChanged` event unless it is the very first), let `fn`
 * change usage and signals and return events, complete and append those events, write the ledger.
 * If `fn` throws, nothing is written. `fn` may run more than once (one run is kept) unless
 * `effects` says it acts beyond the ledger.
 */
export function transact<T>(dir: string, roleName: string, fn: TransactFn<T>, options: Pick<RunOptions, 'effects'> = {}): Promise<TransactResult<T>> {
  return run(dir, roleName, fn, options);
}

/** Starts a new session for `roleName` with zero usage, recorded as a `BudgetReset` event. */
export async function resetSession(dir: string, roleName: string, reason: string): Promise<TransactResult<void>> {
  return run(dir, roleName, () => ({ events: [], result: undefined }), { resetReason: reason });
}

/** Appends events (ConfigWritten, CheckRun, …) to the log as part of the current session. */
export async function recordEvents(dir: string, roleName: string, events: NewEvent[]): Promise<AlfredEvent[]> {
  return (await run(dir, roleName, () => ({ events, result: undefined }))).events;
}
