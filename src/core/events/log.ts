/**
 * The durable event log: `events.jsonl` in the state folder, one JSON object a line, rotated at
 * 10,000 lines to `events.1.jsonl` … `events.5.jsonl`. Writers hold the state lock (see
 * state/lock.ts); readers take no lock and tolerate whatever they find.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import type { AlfredEvent, CorruptLine, EventType } from './types';

export const EVENTS_FILE = 'events.jsonl';
export const MAX_LINES = 10_000;
export const KEEP_ROTATED = 5;
/** `foldEvents` keeps at most this many corrupt-line reports, so its memory stays flat. */
export const MAX_CORRUPT_REPORTS = 1000;

export function rotatedFile(dir: string, n: number): string {
  return path.join(dir, `events.${n}.jsonl`);
}

/** Existing log files, oldest first: events.5.jsonl … events.1.jsonl, events.jsonl. */
export function eventFiles(dir: string): string[] {
  const files: string[] = [];
  for (let n = KEEP_ROTATED; n >= 1; n--) files.push(rotatedFile(dir, n));
  files.push(path.join(dir, EVENTS_FILE));
  return files.filter((f) => fs.existsSync(f));
}

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

/** events.jsonl → events.1.jsonl, events.1 → events.2, …; the oldest beyond KEEP_ROTATED is dropped. */
export function rotate(dir: string): void {
  fs.rmSync(rotatedFile(dir, KEEP_ROTATED), { force: true });
  for (let n = KEEP_ROTATED - 1; n >= 1; n--) {
    if (fs.existsSync(rotatedFile(dir, n))) fs.renameSync(rotatedFile(dir, n), rotatedFile(dir, n + 1));
  }
  const current = path.join(dir, EVENTS_FILE);
  if (fs.existsSync(current)) fs.renameSync(current, rotatedFile(dir, 1));
}

/**
 * Appends a batch in one write; call it under the state lock. `currentLines` is the line count of
 * events.jsonl as the ledger tracks it (counted from the file when not given). Rotates first when
 * the batch would take the file past MAX_LINES. Returns the file's new line count.
 */
export function appendEvents(dir: string, events: readonly AlfredEvent[], currentLines?: number): number {
  const file = path.join(dir, EVENTS_FILE);
  let lines = currentLines ?? countLines(file);
  if (events.length === 0) return lines;
  if (lines > 0 && lines + events.length > MAX_LINES) {
    rotate(dir);
    lines = 0;
  }
  let data = events.map((e) => JSON.stringify(e) + '\n').join('');
  const fd = fs.openSync(file, 'a+', 0o600);
  try {
    // A writer that crashed mid-line left no newline; start on a fresh line so only its line is lost.
    const size = fs.fstatSync(fd).size;
    if (size > 0) {
      const last = Buffer.alloc(1);
      fs.readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 10) data = '\n' + data;
    }
    fs.appendFileSync(fd, data);
  } finally {
    fs.closeSync(fd);
  }
  return lines + events.length;
}

/** Parses one line: an event, a CorruptLine, or undefined for a blank line. */
export function parseEventLine(text: string, file: string, line: number): AlfredEvent | CorruptLine | undefined {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { file, line, message: `not valid JSON: ${(err as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { file, line, message: 'not a JSON object' };
  }
  const rec = value as Record<string, unknown>;
  const missing = ['id', 'ts', 'type'].filter((k) => typeof rec[k] !== 'string' || rec[k] === '');
  if (missing.length > 0) return { file, line, message: `missing ${missing.join(', ')}` };
  return rec as AlfredEvent;
}

function isCorrupt(x: AlfredEvent | CorruptLine): x is CorruptLine {
  return 'message' in x && 'line' in x && !('id' in x);
}

export interface ReadOptions {
  /** Only the last N matching events (across rotated files), oldest first. */
  tail?: number;
  types?: readonly EventType[];
}

export interface ReadResult {
  events: AlfredEvent[];
  corrupt: CorruptLine[];
}

function readFileEvents(file: string, types: ReadonlySet<string> | undefined): ReadResult {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { events: [], corrupt: [] }; // rotated away while we read: nothing to report
  }
  const events: AlfredEvent[] = [];
  const corrupt: CorruptLine[] = [];
  const lines = text.split('\n');
  lines.forEach((raw, i) => {
    const parsed = parseEventLine(raw, file, i + 1);
    if (!parsed) return;
    if (isCorrupt(parsed)) corrupt.push(parsed);
    else if (!types || types.has(parsed.type)) events.push(parsed);
  });
  return { events, corrupt };
}

/** Reads the log; corrupt lines are skipped and reported with file and line number, never fatal. */
export function readEvents(dir: string, options: ReadOptions = {}): ReadResult {
  const { tail } = options;
  if (tail !== undefined && tail <= 0) return { events: [], corrupt: [] };
  const types = options.types ? new Set<string>(options.types) : undefined;
  const chunks: ReadResult[] = [];
  let found = 0;
  // Newest file first, so a tail stops reading as soon as it has enough.
  for (const file of eventFiles(dir).reverse()) {
    const chunk = readFileEvents(file, types);
    chunks.unshift(chunk);
    found += chunk.events.length;
    if (tail !== undefined && found >= tail) break;
  }
  const events = chunks.flatMap((c) => c.events);
  return {
    events: tail !== undefined ? events.slice(-tail) : events,
    corrupt: chunks.flatMap((c) => c.corrupt),
  };
}

export interface FoldResult<S> {
  state: S;
  /** The first MAX_CORRUPT_REPORTS corrupt lines; `corruptCount` has the total. */
  corrupt: CorruptLine[];
  corruptCount: number;
}

/** Streams every event, oldest first, through `reducer` (one line in memory at a time). */
export async function foldEvents<S>(
  dir: string,
  reducer: (state: S, event: AlfredEvent) => S,
  initial: S,
): Promise<FoldResult<S>> {
  let state = initial;
  const corrupt: CorruptLine[] = [];
  let corruptCount = 0;
  for (const file of eventFiles(dir)) {
    let stream: fs.ReadStream;
    try {
      stream = fs.createReadStream(file, { encoding: 'utf8' });
      await new Promise<void>((resolve, reject) => stream.once('open', () => resolve()).once('error', reject));
    } catch {
      continue; // rotated away meanwhile
    }
    const rl = readline.createInterface({ input: stream, crlfDelay: Infinity });
    let line = 0;
    for await (const raw of rl) {
      line++;
      const parsed = parseEventLine(raw, file, line);
      if (!parsed) continue;
      if (isCorrupt(parsed)) {
        corruptCount++;
        if (corrupt.length < MAX_CORRUPT_REPORTS) corrupt.push(parsed);
      } else {
        state = reducer(state, parsed);
      }
    }
  }
  return { state, corrupt, corruptCount };
}
