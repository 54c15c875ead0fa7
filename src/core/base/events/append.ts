/**
 * Appends to the event log. Writers hold the state lock (base/state/lock.ts); rotation happens here, before
 * a batch that would take events.jsonl past MAX_LINES.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { renameRetrying } from '../fs/atomicWrite';
import { appendJsonLines, appendStamp, type AppendedBytes } from '../fs/jsonLines';
import { chainHead, linkEvents } from './chain';
import { EVENTS_FILE, KEEP_ROTATED, MAX_LINES, rotatedFile } from './format';
import type { AlfredEvent } from './types';

/** Lines in a file (a last line without its newline counts). 0 when the file is missing. */
export function countLines(file: string): number {
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch {
    return 0;
  }
  let n = 0;
  for (let i = data.indexOf(10); i !== -1; i = data.indexOf(10, i + 1)) n++;
  return data.length > 0 && data[data.length - 1] !== 10 ? n + 1 : n;
}

/**
 * events.jsonl → events.1.jsonl, events.1 → events.2, …; the oldest beyond KEEP_ROTATED is dropped.
 * Renames are retried on Windows, where a reader holding a file open refuses them for a moment.
 */
export function rotate(dir: string): void {
  fs.rmSync(rotatedFile(dir, KEEP_ROTATED), { force: true });
  for (let n = KEEP_ROTATED - 1; n >= 1; n--) {
    if (fs.existsSync(rotatedFile(dir, n))) renameRetrying(rotatedFile(dir, n), rotatedFile(dir, n + 1));
  }
  const current = path.join(dir, EVENTS_FILE);
  if (fs.existsSync(current)) renameRetrying(current, rotatedFile(dir, 1));
}

export interface AppendedEvents {
  /** events.jsonl's line count after the batch. */
  lines: number;
  /** Where the batch landed in events.jsonl (undefined for an empty batch). */
  write?: AppendedBytes;
  /** The log was rotated before the batch. */
  rotated: boolean;
}

/**
 * Appends a batch in one write, each event linked to the one before it (chain.ts); call it under the state lock. `currentLines` is the line count of
 * events.jsonl as the ledger tracks it (counted from the file when not given). Rotates first when
 * the batch would take the file past MAX_LINES.
 */
export function appendEvents(dir: string, events: readonly AlfredEvent[], currentLines?: number): AppendedEvents {
  const file = path.join(dir, EVENTS_FILE);
  let lines = currentLines ?? countLines(file);
  if (events.length === 0) return { lines, rotated: false };
  let rotated = false;
  if (lines > 0 && lines + events.length > MAX_LINES) {
    rotate(dir);
    lines = 0;
    rotated = true;
  }
  // Each event names the line before it (chain.ts): read here, under the lock every appender holds.
  const linked = linkEvents(events, headOf(dir, file));
  const write = appendJsonLines(file, linked.records);
  if (write) appended.set(file, { stamp: write.stamp, head: linked.head });
  return { lines: lines + events.length, write, rotated };
}

/**
 * The chain's head this process left in each log it appended to, and the log's stamp right after.
 * A process that appends on every call (the hook server) takes the head from here while the log is
 * as it left it (one stat, the same inode, size and change time) instead of reading and hashing its
 * last line. Any other writer's append, a rotation or an edit changes the stamp: the head is read.
 */
const appended = new Map<string, { stamp: string; head: string }>();

function headOf(dir: string, file: string): string {
  const mine = appended.get(file);
  if (mine !== undefined && appendStamp(file) === mine.stamp) return mine.head;
  return chainHead(dir);
}
