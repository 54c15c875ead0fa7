/**
 * The personal ledger's SQL (migrations/003_personal_ledger.sql, 004_ledger_version.sql). A
 * transaction is two round trips on one connection: BEGIN, the scope's row created when missing and
 * locked (`SELECT … FOR UPDATE`), what the state folder's copy lacks read and the events kept offline
 * inserted; then, once the caller has changed the ledger, its events inserted, the row updated and
 * COMMIT. Every other transaction on the scope (another process, another machine) waits for the row
 * meanwhile, so decide-and-charge stays atomic wherever it runs. Events are inserted once by id
 * (`ON CONFLICT DO NOTHING`): a replay adds nothing.
 *
 * Each commit moves the row's `version`. A folder whose copy was written from the row at a version
 * can commit on that copy in one round trip (`commitAt`): the row is locked and the commit made only
 * if it is still at that version (no other writer since) and holds the copy's ledger (the copy not
 * changed since, by a process on the files or by a hand), so the result is the one the two round
 * trips would have given.
 */
import { CHAIN_ROWS_SQL, type ChainRow } from './pgChain';
import type { Client } from 'pg';
import type { AlfredEvent } from '../../base/events/types';
import type { PgConnection } from '../team/pgConnection';
import { validateLedger, type Ledger } from '../ledgerFormat';

/** What a transaction finds under the row lock. */
export interface LockedLedger {
  /** The scope's ledger; undefined in its first transaction. */
  stored: Ledger | undefined;
  /**
   * Events committed since `since` (another machine's on the same scope, or this folder's own that a
   * killed process committed but never copied), oldest first; none when `since` was not given.
   */
  pulled: AlfredEvent[];
  /** The replayed events the database did not hold yet, oldest first: the caller folds them in. */
  replayed: AlfredEvent[];
}

export type LedgerBody = (locked: LockedLedger) => Promise<{ ledger: Ledger; events: readonly AlfredEvent[] }>;

/** Where a commit left the scope's row: its newest event's seq and its version. */
export interface Committed {
  seq: number;
  version: number;
}

export interface LedgerStore {
  /**
   * One transaction on `scope`'s row. Resolves to where the row is once committed. A failure of
   * `body` rolls back and rejects with BodyFailed; any other rejection is the database's.
   */
  transaction(scope: string, since: number | undefined, replay: readonly AlfredEvent[], body: LedgerBody): Promise<Committed>;
  /**
   * In one round trip: writes `ledger` and inserts `events` if `scope`'s row is still at `at`'s
   * version with `at`'s ledger. Undefined when it is not (nothing written); a rejection is the database's.
   */
  commitAt(scope: string, at: { version: number; ledger: Ledger }, ledger: Ledger, events: readonly AlfredEvent[]): Promise<Committed | undefined>;
  /** Connects (and migrates) unless connected: slow next to a transaction, so done before the state lock. */
  connect(): Promise<void>;
  /** `scope`'s event rows with their links, oldest first (pgChain.ts). */
  chainRows?(scope: string): Promise<ChainRow[]>;
  /** Set when the store cannot be used as configured (no URL, an unknown backend): the reason. */
  readonly misconfigured?: string;
  close(): Promise<void>;
}

/** The caller's function failed: nothing was written, and the database is not to blame. */
export class BodyFailed extends Error {
  constructor(readonly failure: unknown) {
    super('the ledger transaction failed');
  }
}

/** Fields of a state folder's copy that are not the ledger's: where that folder's files end. */
const LOCAL_FIELDS = ['eventBytes', 'eventIno'] as const;

/** The ledger as the row keeps it: without the local fields (eventLines is required by the format: 0). */
export function storedForm(ledger: Ledger): Ledger {
  const copy = { ...ledger, eventLines: 0 };
  for (const k of LOCAL_FIELDS) delete copy[k];
  return copy;
}

/**
 * Inserts events not yet there, in order, returning the new ones' seq and event. `scope` and `events`
 * are SQL: literals, or a prepared statement's parameters (`events` a jsonb array).
 */
function insertEvents(scope: string, events: string, where = ''): string {
  return `INSERT INTO alfred_ledger_events (id, ts, type, scope, session, role, event)
    SELECT e->>'id', (e->>'ts')::timestamptz, e->>'type', ${scope}, coalesce(e->>'session', ''), coalesce(e->>'role', ''), e
    FROM jsonb_array_elements(${events}) WITH ORDINALITY AS x(e, n) ${where} ORDER BY n
    ON CONFLICT (id) DO NOTHING RETURNING seq, event`;
}

const eventsLiteral = (db: Client, events: readonly AlfredEvent[]): string => `${db.escapeLiteral(JSON.stringify(events))}::jsonb`;

/**
 * commitAt's statement, prepared once per connection (parsed and planned once). The row locked only
 * as it was: a writer that moved it first leaves `cur` empty, and then nothing is inserted or updated
 * (READ COMMITTED checks the condition again once the lock is ours). jsonb equality is by value. One
 * statement is one transaction: one round trip.
 */
const COMMIT_AT = `WITH cur AS (SELECT last_seq FROM alfred_ledgers WHERE scope = $1 AND version = $2 AND ledger = $3::jsonb FOR UPDATE),
  e AS (${insertEvents('$1', '$4::jsonb', 'WHERE EXISTS (SELECT 1 FROM cur)')})
  UPDATE alfred_ledgers SET ledger = $5::jsonb, updated_at = now(), version = version + 1,
    last_seq = greatest(last_seq, (SELECT coalesce(max(seq), 0) FROM e)) WHERE scope = $1 AND EXISTS (SELECT 1 FROM cur) RETURNING last_seq, version`;

interface CommittedRow { last_seq: string; version: string }
const committed = (r: CommittedRow): Committed => ({ seq: Number(r.last_seq), version: Number(r.version) });

interface EventRow { seq: string; event: AlfredEvent }
const seqOf = (rows: readonly EventRow[]): number => rows.reduce((m, r) => Math.max(m, Number(r.seq)), 0);

export class PgLedgerStore implements LedgerStore {
  /** One transaction at a time on the one connection: statements of two would interleave. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly db: PgConnection) {}

  transaction(scope: string, since: number | undefined, replay: readonly AlfredEvent[], body: LedgerBody): Promise<Committed> {
    return this.queued((db) => this.run(db, scope, since, replay, body));
  }

  commitAt(scope: string, at: { version: number; ledger: Ledger }, ledger: Ledger, events: readonly AlfredEvent[]): Promise<Committed | undefined> {
    return this.queued(async (db) => {
      const done = await db.query<CommittedRow>({ name: 'alfred-commit-at', text: COMMIT_AT, values: [
        scope, Math.floor(at.version), JSON.stringify(storedForm(at.ledger)), JSON.stringify(events), JSON.stringify(storedForm(ledger)),
      ] });
      const row = done.rows[0];
      return row && committed(row);
    });
  }

  chainRows(scope: string): Promise<ChainRow[]> {
    return this.queued(async (db) => (await db.query<ChainRow & Record<string, unknown>>(CHAIN_ROWS_SQL, [scope])).rows);
  }

  private queued<T>(fn: (db: Client) => Promise<T>): Promise<T> {
    const run = this.tail.then(() => this.db.session(fn));
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async run(db: Client, scope: string, since: number | undefined, replay: readonly AlfredEvent[], body: LedgerBody): Promise<Committed> {
    const s = db.escapeLiteral(scope);
    // Several statements in one message: one round trip. `since` is a safe integer (ledgerFormat.ts).
    const opening = [
      'BEGIN',
      `INSERT INTO alfred_ledgers (scope) VALUES (${s}) ON CONFLICT (scope) DO NOTHING`,
      `SELECT ledger, last_seq FROM alfred_ledgers WHERE scope = ${s} FOR UPDATE`,
      ...(since !== undefined ? [`SELECT seq, event FROM alfred_ledger_events WHERE scope = ${s} AND seq > ${Math.floor(since)} ORDER BY seq`] : []),
      ...(replay.length > 0 ? [`WITH r AS (${insertEvents(s, eventsLiteral(db, replay))}) SELECT seq, event FROM r ORDER BY seq`] : []),
    ];
    const results = (await db.query(opening.join(';\n'))) as unknown as Array<{ rows: unknown[] }>;
    const row = results[2]!.rows[0] as { ledger: unknown; last_seq: string };
    const pulledRows = since !== undefined ? results[3]!.rows as EventRow[] : [];
    const replayedRows = replay.length > 0 ? results.at(-1)!.rows as EventRow[] : [];
    let stored: Ledger | undefined;
    if (row.ledger !== null) {
      const checked = validateLedger(row.ledger);
      if (typeof checked === 'string') throw new Error(`the database's ledger of scope ${scope} is not valid (${checked})`);
      stored = checked;
    }
    let written: Awaited<ReturnType<LedgerBody>>;
    try {
      written = await body({ stored, pulled: pulledRows.map((r) => r.event), replayed: replayedRows.map((r) => r.event) });
    } catch (err) {
      throw new BodyFailed(err); // the connection is dropped, which rolls the transaction back
    }
    const known = Math.max(Number(row.last_seq), seqOf(pulledRows), seqOf(replayedRows));
    const closing = `WITH e AS (${insertEvents(s, eventsLiteral(db, written.events))})
      UPDATE alfred_ledgers SET ledger = ${db.escapeLiteral(JSON.stringify(storedForm(written.ledger)))}::jsonb, updated_at = now(), version = version + 1,
        last_seq = greatest(${known}, (SELECT coalesce(max(seq), 0) FROM e)) WHERE scope = ${s} RETURNING last_seq, version;
      COMMIT`;
    const done = (await db.query(closing)) as unknown as Array<{ rows: CommittedRow[] }>;
    return committed(done[0]!.rows[0]!);
  }

  async connect(): Promise<void> {
    await this.db.connect();
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
