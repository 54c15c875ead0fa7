/**
 * How far a state folder's copy of the log follows the database's: `ledger-remote.json`, the scope
 * and the newest seq of its events that events.jsonl holds. Beside ledger.json rather than in it, so
 * that ledger.json stays exactly what the file backend writes (the fold of the folder's log).
 */
import * as path from 'node:path';
import { readCheckedJson, writeCheckedJson } from '../../fs/checkedJson';

export const REMOTE_MARK_FILE = 'ledger-remote.json';

/** The seq the copy holds for `scope`; undefined when unknown (no mark, another scope's, unreadable). */
export function readRemoteSeq(dir: string, scope: string): number | undefined {
  const read = readCheckedJson(path.join(dir, REMOTE_MARK_FILE));
  if (!('value' in read)) return undefined;
  const v = read.value as { scope?: unknown; seq?: unknown } | null;
  return v?.scope === scope && Number.isSafeInteger(v.seq) && (v.seq as number) >= 0 ? v.seq as number : undefined;
}

export function writeRemoteSeq(dir: string, scope: string, seq: number): void {
  writeCheckedJson(path.join(dir, REMOTE_MARK_FILE), { scope, seq });
}
