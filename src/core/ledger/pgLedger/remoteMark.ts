/**
 * How far a state folder's copy follows the database: `ledger-remote.json`, the scope, the newest seq
 * of its events that events.jsonl holds, and, when ledger.json was written from the scope's row, the
 * row's version then. Beside ledger.json rather than in it, so that ledger.json stays exactly what
 * the file backend writes (the fold of the folder's log).
 */
import * as path from 'node:path';
import { readCheckedJson, writeCheckedJson } from '../../base/fs/checkedJson';

export const REMOTE_MARK_FILE = 'ledger-remote.json';

export interface RemoteMark {
  /** The newest seq of the scope's events the copy holds. */
  seq: number;
  /** The row's version when ledger.json was written from it. */
  version?: number;
}

const count = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** The mark for `scope`; undefined when unknown (no mark, another scope's, unreadable). */
export function readRemoteMark(dir: string, scope: string): RemoteMark | undefined {
  const read = readCheckedJson(path.join(dir, REMOTE_MARK_FILE));
  if (!('value' in read)) return undefined;
  const v = read.value as { scope?: unknown; seq?: unknown; version?: unknown } | null;
  if (v?.scope !== scope || !count(v.seq)) return undefined;
  return count(v.version) ? { seq: v.seq, version: v.version } : { seq: v.seq };
}

export function writeRemoteMark(dir: string, scope: string, mark: RemoteMark): void {
  writeCheckedJson(path.join(dir, REMOTE_MARK_FILE), { scope, ...mark });
}
