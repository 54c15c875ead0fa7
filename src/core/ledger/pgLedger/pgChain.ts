/**
 * The PostgreSQL trail's hash chain (migration 005_event_chain.sql): each event row names the hash
 * of the scope's row before it, and its own hash covers its prev, its seq and its event. Checked
 * here, outside the database: an edited row no longer has its hash, a deleted row's successor names
 * a hash no row has, reordered seqs change the hashes.
 */
import { sha256Hex } from '../../base/crypto/sha256';
import { GENESIS } from '../../base/events/chain';

export interface ChainRow {
  seq: string | number;
  prev: string | null;
  hash: string | null;
  /** The event as jsonb's text (`event::text`). */
  event: string;
}

export type PgChainVerdict = { ok: true; rows: number; unchained: number } | { ok: false; seq: number; problem: string; rows: number };

export const rowHash = (prev: string, seq: string | number, event: string): string => sha256Hex(`${prev} ${seq} ${event}`);

/** The SQL that reads a scope's rows for verifyPgRows, oldest first (`$1`: the scope). */
export const CHAIN_ROWS_SQL = 'SELECT seq, prev, hash, event::text AS event FROM alfred_ledger_events WHERE scope = $1 ORDER BY seq';

export function verifyPgRows(rows: readonly ChainRow[]): PgChainVerdict {
  let expected: string | undefined;
  let unchained = 0;
  let n = 0;
  for (const row of rows) {
    n++;
    const seq = Number(row.seq);
    if (row.hash === null && row.prev === null && expected === undefined) {
      unchained++;
      continue;
    }
    if (row.hash === null || row.prev === null) return { ok: false, seq, problem: 'the row has lost its link', rows: n };
    if (row.prev !== (expected ?? GENESIS)) {
      return { ok: false, seq, problem: expected === undefined ? 'the first linked row does not start the chain (rows before it were removed)' : 'prev does not match the row before it: that row was removed, or rows were reordered', rows: n };
    }
    if (rowHash(row.prev, row.seq, row.event) !== row.hash) return { ok: false, seq, problem: 'the row was changed after it was written (its hash no longer matches)', rows: n };
    expected = row.hash;
  }
  return { ok: true, rows: n, unchained };
}
