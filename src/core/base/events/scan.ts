/**
 * Streaming the event log through a scanner, one chunk of a file in memory at a time: the fold of
 * the ledger (ledger/ledgerFold.ts) and any reducer over every event.
 */
import * as fs from 'node:fs';
import { eventFiles, isCorruptLine, parseEventLine } from './format';
import type { AlfredEvent, CorruptLine } from './types';

/** `foldEvents` keeps at most this many corrupt-line reports, so its memory stays flat. */
export const MAX_CORRUPT_REPORTS = 1000;

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
  /**
   * Leave the last part's last line unread when nothing ends it: a writer may be in the middle of it
   * (a reader can see half of another process's append), or was killed there, and the next append
   * ends it with a newline. Earlier parts (rotated files) are never appended to again.
   */
  wholeLinesOnly?: boolean;
}

/** Where a scan stopped reading: the file (its inode) and the byte just after the last line read. */
export interface ReadEnd {
  file: string;
  ino: number;
  bytes: number;
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
    if (isCorruptLine(parsed)) {
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
function emitLines(b: Buffer, filled: number, eof: boolean, sink: LineSink, wholeLinesOnly: boolean): number {
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
  if (eof && pos < filled && !wholeLinesOnly) {
    sink.line(b, pos, filled);
    pos = filled;
  }
  return pos;
}

/**
 * Reads a file in chunks into one reused buffer (grown only for a line longer than it) and hands
 * its lines to the sink. Waits a turn of the event loop between chunks, so a long read never blocks
 * other work for long. Returns where it stopped; undefined when the file cannot be opened (rotated
 * away meanwhile).
 */
async function readLines(file: string, from: number, buf: { bytes: Buffer }, sink: LineSink, wholeLinesOnly: boolean): Promise<ReadEnd | undefined> {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return undefined;
  }
  sink.file = file;
  sink.lineNo = 0;
  try {
    const { ino } = fs.fstatSync(fd);
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
      const pos = emitLines(b, filled, n === 0, sink, wholeLinesOnly);
      // The end of what was read, not the file's size now: another process may have appended since.
      if (n === 0) return { file, ino, bytes: at - (filled - pos) };
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
export function scanEvents(dir: string, scanner: EventScanner, options: ScanOptions = {}): Promise<ScanResult> {
  return scanEventParts(eventFiles(dir).map((file) => ({ file, from: 0 })), scanner, options);
}

export interface ScanResult extends Omit<FoldResult<unknown>, 'state'> {
  /** Where the last file read ends; undefined when none could be opened. */
  end?: ReadEnd;
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
export async function scanEventParts(parts: readonly LogPart[], scanner: EventScanner, options: ScanOptions = {}): Promise<ScanResult> {
  const sink = idleSinks.pop() ?? new LineSink();
  sink.start(scanner);
  try {
    const buf = { bytes: Buffer.allocUnsafe(Math.max(1, options.chunkBytes ?? CHUNK_BYTES)) };
    let end: ReadEnd | undefined;
    for (const [i, { file, from }] of parts.entries()) {
      const wholeLinesOnly = options.wholeLinesOnly === true && i === parts.length - 1;
      end = (await readLines(file, from, buf, sink, wholeLinesOnly)) ?? end;
    }
    return { corrupt: sink.corrupt, corruptCount: sink.corruptCount, end };
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
