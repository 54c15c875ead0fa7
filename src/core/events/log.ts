/**
 * The durable event log: `events.jsonl` in the state folder, one JSON object a line, rotated at
 * 10,000 lines to `events.1.jsonl` … `events.5.jsonl`. Writers hold the state lock (see
 * state/lock.ts); readers take no lock and tolerate whatever they find.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { appendJsonLines } from '../fs/jsonLines';
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
  appendJsonLines(file, events);
  return lines + events.length;
}

/** Parses one line: an event, a CorruptLine, or undefined for a blank line. */
/**
 * The log's events newest first, across its rotated files, parsed one line at a time as the caller
 * asks: a reader that stops early (at an earlier day, another session) parses only the lines it
 * needed. Corrupt lines and files rotated away while reading are passed over.
 */
export function* eventsNewestFirst(dir: string): Generator<AlfredEvent> {
  for (const file of eventFiles(dir).reverse()) {
    let lines: string[];
    try {
      lines = fs.readFileSync(file, 'utf8').split('\n');
    } catch {
      continue;
    }
    for (let i = lines.length - 1; i >= 0; i--) {
      const e = parseEventLine(lines[i]!, file, i + 1);
      if (e && 'id' in e) yield e;
    }
  }
}

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

/** Read size; tests pass tiny sizes to exercise lines split across reads. */
export const CHUNK_BYTES = 1 << 20;

export interface ScanOptions {
  chunkBytes?: number;
}

const LF = 10;
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Where `scanEvents` sends each line. Implement it as a class to keep a fold fast (see LineSink). */
export interface EventScanner {
  /**
   * Optional fast path: folds whole lines from `start` (a line's start), each ended by `\n`, as many
   * in a row as it can; returns how many and sets `folded.end` just after the last one's `\n`. 0 has
   * the line at `start` parsed in full and passed to `event`. `text` is the chunk's bytes as latin1,
   * one character a byte (for regular expressions); both are valid only during the call.
   */
  fast?(bytes: Buffer, text: string, start: number, folded: { end: number }): number;
  event(event: AlfredEvent): void;
}

/**
 * Turns one scan's lines into events and corrupt-line reports. Methods and plain functions rather
 * than closures made per scan, and sinks reused rather than made per scan (`idleSinks`): V8 throws
 * away optimized code when an object or object shape it relies on is collected, and a fold would then
 * start unoptimized every time. A sink is used by one scan at a time.
 */
class LineSink {
  corrupt: CorruptLine[] = [];
  corruptCount = 0;
  file = '';
  /** The number of the last line handed over, in `file`. */
  lineNo = 0;
  private scanner: EventScanner | undefined;
  private readonly folded = { end: 0 };

  start(scanner: EventScanner): void {
    this.scanner = scanner;
    this.corrupt = [];
    this.corruptCount = 0;
  }

  finish(): void {
    this.scanner = undefined;
    this.corrupt = [];
  }

  /** Lets the scanner's fast path fold lines from `start`; returns where they end (`start`: none). */
  run(bytes: Buffer, text: string, start: number): number {
    const scanner = this.scanner!;
    if (scanner.fast === undefined) return start;
    const lines = scanner.fast(bytes, text, start, this.folded);
    if (lines === 0) return start;
    this.lineNo += lines;
    return this.folded.end;
  }

  line(bytes: Buffer, start: number, end: number): void {
    const n = ++this.lineNo;
    const parsed = parseEventLine(bytes.toString('utf8', start, end), this.file, n);
    if (!parsed) return;
    if (isCorrupt(parsed)) {
      this.corruptCount++;
      if (this.corrupt.length < MAX_CORRUPT_REPORTS) this.corrupt.push(parsed);
    } else {
      this.scanner!.event(parsed);
    }
  }
}

const idleSinks: LineSink[] = [];

/**
 * Hands each complete line of `b[0…filled)` to the sink, breaking lines where readline does — `\n`,
 * `\r\n` and a lone `\r` — so line numbers agree with any reader of the log. Returns where the
 * unfinished last line starts (`filled` when none is left; at the end of the file, `eof`, the last
 * line needs no break).
 */
function emitLines(b: Buffer, filled: number, eof: boolean, sink: LineSink): number {
  // The bytes as latin1, one character a byte: string searches are cheaper than Buffer's, and the
  // fast path matches lines with a regular expression.
  const text = b.toString('latin1', 0, filled);
  let pos = 0;
  let lf = text.indexOf('\n');
  let cr = text.indexOf('\r');
  for (;;) {
    const folded = sink.run(b, text, pos);
    if (folded > pos) {
      pos = folded;
      if (lf !== -1 && lf < pos) lf = text.indexOf('\n', pos);
      if (cr !== -1 && cr < pos) cr = text.indexOf('\r', pos);
    }
    const brk = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
    if (brk === -1) break;
    let next = brk + 1;
    if (brk === cr) {
      if (next === filled && !eof) break; // a \n may follow in the next read
      if (next < filled && b[next] === LF) next++;
    }
    sink.line(b, pos, brk);
    pos = next;
    if (lf !== -1 && lf < pos) lf = text.indexOf('\n', pos);
    if (cr !== -1 && cr < pos) cr = text.indexOf('\r', pos);
  }
  if (eof && pos < filled) {
    sink.line(b, pos, filled);
    pos = filled;
  }
  return pos;
}

/**
 * Reads a file in chunks into one reused buffer (grown only for a line longer than it) and hands
 * its lines to the sink. Waits a turn of the event loop between chunks, so a long read never blocks
 * other work for long. False when the file cannot be opened (rotated away meanwhile).
 */
async function readLines(file: string, from: number, buf: { bytes: Buffer }, sink: LineSink): Promise<boolean> {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return false;
  }
  sink.file = file;
  sink.lineNo = 0;
  try {
    let filled = 0;
    let at = from;
    for (;;) {
      if (filled === buf.bytes.length) { // one line fills the buffer: grow it
        const bigger = Buffer.allocUnsafe(buf.bytes.length * 2);
        buf.bytes.copy(bigger, 0, 0, filled);
        buf.bytes = bigger;
      }
      const b = buf.bytes;
      const n = fs.readSync(fd, b, filled, b.length - filled, at);
      filled += n;
      at += n;
      const pos = emitLines(b, filled, n === 0, sink);
      if (n === 0) return true;
      b.copy(b, 0, pos, filled);
      filled -= pos;
      await nextTurn();
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Streams every line of the log, oldest first, through `scanner`; corrupt lines are skipped and
 * counted, the first MAX_CORRUPT_REPORTS reported. Memory stays flat: one read buffer and its text.
 */
export function scanEvents(dir: string, scanner: EventScanner, options: ScanOptions = {}): Promise<Omit<FoldResult<unknown>, 'state'>> {
  return scanEventParts(eventFiles(dir).map((file) => ({ file, from: 0 })), scanner, options);
}

/** A file of the log to read from byte `from` on (a line's start, or the end of a torn last line). */
export interface LogPart {
  file: string;
  from: number;
}

/**
 * `scanEvents` over the given parts, in order: what the log holds beyond a known place. Line numbers
 * in corrupt-line reports count from each part's start.
 */
export async function scanEventParts(parts: readonly LogPart[], scanner: EventScanner, options: ScanOptions = {}): Promise<Omit<FoldResult<unknown>, 'state'>> {
  const sink = idleSinks.pop() ?? new LineSink();
  sink.start(scanner);
  try {
    const buf = { bytes: Buffer.allocUnsafe(Math.max(1, options.chunkBytes ?? CHUNK_BYTES)) };
    for (const { file, from } of parts) await readLines(file, from, buf, sink);
    return { corrupt: sink.corrupt, corruptCount: sink.corruptCount };
  } finally {
    sink.finish();
    idleSinks.push(sink);
  }
}

/** Streams every event, oldest first, through `reducer` (one chunk of a file in memory at a time). */
export async function foldEvents<S>(
  dir: string,
  reducer: (state: S, event: AlfredEvent) => S,
  initial: S,
  options: ScanOptions = {},
): Promise<FoldResult<S>> {
  let state = initial;
  const { corrupt, corruptCount } = await scanEvents(dir, { event: (e) => { state = reducer(state, e); } }, options);
  return { state, corrupt, corruptCount };
}
