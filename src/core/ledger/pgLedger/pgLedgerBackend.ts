/**
 * The personal ledger and event log in PostgreSQL, with the file backend's semantics: the database
 * is the truth, and the state folder keeps a copy of it that every display reads as before, without
 * the database (ledger.json: the ledger as of this folder's last transaction; events.jsonl: the
 * events committed here, and those of the scope committed elsewhere since, caught up at each
 * transaction). Under the state folder's lock, a transaction locks the scope's row, lets the caller
 * change the ledger, commits its events and the ledger, then writes the copy. When the copy was
 * written from the row (its version in the mark), the caller changes the copy instead and the commit
 * is one round trip, made only if the row is still at that version and holds the ledger the copy
 * holds; if not, the transaction runs again on the row. So a caller whose function acts beyond the
 * ledger (`effects`) always runs on the row.
 *
 * Offline: when the database cannot be reached before the caller's function runs, the transaction
 * runs on the copy as the file backend would, told so (`context.offline`: the role's offline mode
 * decides whether authorize refuses), and its events are kept in `ledger-pending.jsonl`; when it
 * fails after (the commit's outcome unknown), what the function did is kept the same way, never run
 * twice. The next transaction that reaches the database sends them first, inserted once by id and
 * folded into the row's ledger (foldScopeEvents): never lost, never counted twice.
 */
import * as path from 'node:path';
import { nowIso } from '../../base/events/ids';
import { appendEvents, countLines } from '../../base/events/append';
import { EVENTS_FILE } from '../../base/events/format';
import { verifyPgRows, type PgChainVerdict } from './pgChain';
import type { AlfredEvent } from '../../base/events/types';
import { Journal } from '../../base/fs/journal';
import type { OfflineMode } from '../team/config';
import { ONLINE, type LedgerBackend, type RunOptions, type TransactFn, type TransactResult } from '../ledgerBackend';
import { anchorAtLogEnd, foldScopeEvents } from '../ledgerFold';
import { readLedgerFile, writeLedger, type Ledger } from '../ledgerFormat';
import { complete, fileTransaction, openSession } from '../ledgerStore';
import { withLock } from '../../base/state/lock';
import { BodyFailed, storedForm, type Committed, type LedgerStore } from './pgLedgerStore';
import { readRemoteMark, writeRemoteMark } from './remoteMark';

/** Events written on the copy while the database could not be reached, waiting to be sent. */
export const ledgerPending = new Journal<AlfredEvent>('ledger-pending');

export interface PgLedgerBackendOptions {
  store: LedgerStore;
  /** Whose ledger this is in the database (open.ts): the state folder's, or ALFRED_LEDGER_SCOPE. */
  scope: string;
  /** What a role does while the database cannot be reached (.alfred/team.toml's [offline]). */
  offlineMode: (role: string) => OfflineMode;
}

const problemOf = (err: unknown): string => (err instanceof Error ? err.message : String(err)) || 'no answer';
const keptProblem = (err: unknown): string =>
  `The ledger database cannot be reached (${problemOf(err)}): this transaction was kept in the state folder and is sent once it is back.`;

/** A transaction the caller's function ran in, kept until the database has it. */
interface Attempt<T> {
  ledger: Ledger;
  events: AlfredEvent[];
  result: T;
  pulled: AlfredEvent[];
}

export class PgLedgerBackend implements LedgerBackend {
  readonly name = 'postgres';

  constructor(private readonly o: PgLedgerBackendOptions) {}

  get where(): string {
    return `PostgreSQL, scope ${this.o.scope}`;
  }

  async problem(): Promise<{ reason: string; misconfigured: boolean } | undefined> {
    if (this.o.store.misconfigured !== undefined) return { reason: this.o.store.misconfigured, misconfigured: true };
    return this.o.store.connect().then(() => undefined, (err: unknown) => ({ reason: problemOf(err), misconfigured: false }));
  }

  async verifyChain(): Promise<PgChainVerdict> {
    if (!this.o.store.chainRows) throw new Error('this store keeps no chain');
    await this.o.store.connect();
    return verifyPgRows(await this.o.store.chainRows(this.o.scope));
  }

  async run<T>(dir: string, roleName: string, fn: TransactFn<T>, options: RunOptions = {}): Promise<TransactResult<T>> {
    // A connection's start (authentication, the migrations' check) is slow next to a transaction:
    // outside the state lock, so that processes waiting for it wait for transactions alone.
    const unreachable = await this.o.store.connect().then(() => undefined, (err: unknown) => err ?? 'no answer');
    return withLock(dir, () => (unreachable !== undefined
      ? this.offline(dir, roleName, fn, options.resetReason, unreachable)
      : this.online(dir, roleName, fn, options)));
  }

  /** Under the lock: the transaction in the database, then the copy written. */
  private async online<T>(dir: string, roleName: string, fn: TransactFn<T>, options: RunOptions): Promise<TransactResult<T>> {
    const { resetReason } = options;
    const local = readLedgerFile(dir).ledger;
    const mark = readRemoteMark(dir, this.o.scope);
    if (!options.effects && local && mark?.version !== undefined && !ledgerPending.has(dir)) {
      const done = await this.onCopy(dir, roleName, fn, resetReason, local, mark.version);
      if (done) return done;
    }
    const waiting = ledgerPending.has(dir) ? ledgerPending.take(dir) : undefined;
    let attempt: Attempt<T> | undefined;
    let at: Committed;
    try {
      at = await this.o.store.transaction(this.o.scope, mark?.seq, waiting?.items ?? [], async ({ stored, pulled, replayed }) => {
        // A scope's first transaction carries on from the folder's own ledger (a switch from files keeps the budget).
        const prev = foldScopeEvents(stored ?? (local && storedForm(local)), replayed);
        const ts = nowIso();
        const { ledger, opening } = openSession(prev, roleName, ts, () => 0, resetReason);
        const { events, result } = await fn(ledger, ONLINE);
        const all = [...opening, ...events].map((e) => complete(e, ledger, ts));
        // This folder's own events kept for the database are in its copy already, whether or not an
        // earlier attempt committed them.
        const kept = new Set(waiting?.items.map((e) => e.id));
        attempt = { ledger, events: all, result, pulled: pulled.filter((e) => !kept.has(e.id)) };
        return { ledger, events: all };
      });
    } catch (err) {
      if (err instanceof BodyFailed) throw err.failure;
      if (!attempt) return this.offline(dir, roleName, fn, resetReason, err);
      // What was pulled is left for the next transaction to pull again (the mark did not move).
      return unanswered(dir, local, attempt, err);
    }
    waiting?.done();
    const a: Attempt<T> = attempt!;
    const ledger = this.committed(dir, local, a.ledger, [...a.pulled, ...a.events], at);
    return { result: a.result, events: a.events, ledger, problems: [] };
  }

  /**
   * Under the lock: `fn` on the copy (the row at `version`), committed in one round trip if the row
   * is still there with the copy's ledger; undefined, with nothing written, when it is not (another
   * writer moved it, or the copy was changed since: a process on the files, a hand).
   */
  private async onCopy<T>(dir: string, roleName: string, fn: TransactFn<T>, resetReason: string | undefined, local: Ledger, version: number): Promise<TransactResult<T> | undefined> {
    const ts = nowIso();
    const prior = storedForm(local);
    // A deep copy: `fn` changes it, and `prior` is what the row must still hold.
    const { ledger, opening } = openSession(structuredClone(prior), roleName, ts, () => 0, resetReason);
    const { events, result } = await fn(ledger, ONLINE);
    const all = [...opening, ...events].map((e) => complete(e, ledger, ts));
    let at: Committed | undefined;
    try {
      at = await this.o.store.commitAt(this.o.scope, { version, ledger: prior }, ledger, all);
    } catch (err) {
      return unanswered(dir, local, { ledger, events: all, result, pulled: [] }, err);
    }
    return at && { result, events: all, ledger: this.committed(dir, local, ledger, all, at), problems: [] };
  }

  /** The copy of a committed transaction, and the mark that says how far it follows the row. */
  private committed(dir: string, local: Ledger | undefined, ledger: Ledger, copied: readonly AlfredEvent[], at: Committed): Ledger {
    const copy = writeCopy(dir, local, ledger, copied);
    writeRemoteMark(dir, this.o.scope, { seq: at.seq, version: at.version });
    return copy;
  }

  /** Under the lock: the file transaction on the copy, told so, its events kept for the database. */
  private async offline<T>(dir: string, roleName: string, fn: TransactFn<T>, resetReason: string | undefined, err: unknown): Promise<TransactResult<T>> {
    const offline = { reason: problemOf(err), failClosed: this.o.offlineMode(roleName) === 'fail-closed' };
    const out = await fileTransaction(dir, roleName, fn, resetReason, { offline }, (events) => ledgerPending.append(dir, events));
    return { ...out, problems: [...out.problems, keptProblem(err)] };
  }

  close(): Promise<void> {
    return this.o.store.close();
  }
}

/**
 * A commit that may or may not have happened: its events kept to send again, by id, rather than the
 * transaction run again; the copy written as if it had.
 */
function unanswered<T>(dir: string, local: Ledger | undefined, a: Attempt<T>, err: unknown): TransactResult<T> {
  ledgerPending.append(dir, a.events);
  const ledger = writeCopy(dir, local, a.ledger, a.events);
  return { result: a.result, events: a.events, ledger, problems: [keptProblem(err)] };
}

/**
 * Writes the state folder's copy: `events` appended to its log (rotated as the file backend's), and
 * the ledger with where that log ends, as the file backend would have written it.
 */
function writeCopy(dir: string, local: Ledger | undefined, ledger: Ledger, events: readonly AlfredEvent[]): Ledger {
  const copy: Ledger = { ...ledger };
  delete copy.eventBytes;
  delete copy.eventIno;
  const appended = appendEvents(dir, events, local?.eventLines ?? countLines(path.join(dir, EVENTS_FILE)));
  if (appended.write) {
    copy.eventLines = appended.lines;
    copy.eventBytes = appended.write.after;
    copy.eventIno = appended.write.ino;
  } else {
    anchorAtLogEnd(dir, copy);
  }
  writeLedger(dir, copy);
  return copy;
}
