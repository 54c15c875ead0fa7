/**
 * How far a state folder's copy follows the database: `ledger-remote.json`, the scope, the newest seq
 * of its events that events.jsonl holds, and, when ledger.json is the scope's row as committed, the
 * row's version and a digest of that ledger (so a copy changed since by anything else, a process on
 * the files for one, is not taken for the row). Beside ledger.json rather than in it, so that
 * ledger.json stays exactly what the file backend writes (the fold of the folder's log).
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { readCheckedJson, writeCheckedJson } from '../../fs/checkedJson';
import type { Ledger } from '../ledgerFormat';
import { storedForm } from './pgLedgerStore';

export const REMOTE_MARK_FILE = 'ledger-remote.json';

export interface RemoteMark {
  /** The newest seq of the scope's events the copy holds. */
  seq: number;
  /** The row's version when ledger.json was written from it. */
  version?: number;
  /** ledgerDigest of that ledger.json. */
  digest?: string;
}

/** The ledger as the row holds it, in a few bytes: keys sorted, so that the same ledger gives the same digest. */
export function ledgerDigest(ledger: Ledger): string {
  const sorted = (v: unknown): unknown => (Array.isArray(v) ? v.map(sorted)
    : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])])) : v);
  return createHash('sha256').update(JSON.stringify(sorted(storedForm(ledger)))).digest('base64url');
}

const count = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** The mark for `scope`; undefined when unknown (no mark, another scope's, unreadable). */
export function readRemoteMark(dir: string, scope: string): RemoteMark | undefined {
  const read = readCheckedJson(path.join(dir, REMOTE_MARK_FILE));
  if (!('value' in read)) return undefined;
  const v = read.value as { scope?: unknown; seq?: unknown; version?: unknown; digest?: unknown } | null;
  if (v?.scope !== scope || !count(v.seq)) return undefined;
  return count(v.version) && typeof v.digest === 'string' ? { seq: v.seq, version: v.version, digest: v.digest } : { seq: v.seq };
}

export function writeRemoteMark(dir: string, scope: string, mark: RemoteMark): void {
  writeCheckedJson(path.join(dir, REMOTE_MARK_FILE), { scope, ...mark });
}
