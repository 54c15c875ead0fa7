/**
 * Reads what was appended to a file since the last read, each complete line exactly once, across
 * restarts too: the position is plain JSON (`state`) that the caller persists after handling the
 * lines. For JSON-lines files another program appends to (Copilot's OTel file exporter, Claude
 * Code's transcripts).
 *
 * - Only complete lines are returned; a partial last line waits for its newline. CR before LF is
 *   dropped, blank lines are passed over.
 * - Truncated (size below the position): read again from 0.
 * - Rotated (another file at the path — its device/inode differ — or the same inode with another
 *   first line): first the rest of the old file, if it is still next to the path under a name that
 *   starts with the file's (`events.jsonl.1`, `…-old`), from the remembered position, never from its
 *   start; then the new file from 0. A partial line left at the end of the old file is lost.
 * - Gone: nothing is read, the position is kept.
 * Bounded: at most `maxReadBytes` a call (`more` says there is more), and a line longer than
 * `maxLineBytes` is skipped (counted in `oversized`) rather than held in memory.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sha256Hex } from '../base/crypto/sha256';

export interface TailState {
  /** Device and inode of the file read, as decimal strings (inodes may exceed 2^53). */
  dev: string;
  ino: string;
  /** Bytes read: the position after the last complete line returned. */
  offset: number;
  /** SHA-256 of the first line (with its newline), or of its first 4 KiB: tells a replaced file from an appended one. */
  head?: { bytes: number; sha256: string };
  /** Inside an oversized line: the bytes up to its newline are discarded. */
  skipping?: true;
}

export type TailEvent = 'read' | 'missing' | 'truncated' | 'rotated';

export interface TailRead {
  lines: string[];
  event: TailEvent;
  /** Data was left for the next call (more than maxReadBytes were waiting). */
  more: boolean;
  /** Lines skipped for being longer than maxLineBytes. */
  oversized: number;
}

export interface FileTailOptions {
  /** Where a tail without a state starts in the file that exists at the first read (default `start`). */
  from?: 'start' | 'end';
  /** Default 32 MiB. */
  maxReadBytes?: number;
  /** Default 16 MiB (Copilot's spans hold whole prompts when content capture is on). */
  maxLineBytes?: number;
}

const LF = 0x0a;
const CR = 0x0d;
const HEAD_MAX = 4096;
/** Names looked at for the rotated file; a folder with more is not a log folder worth scanning. */
const MAX_SIBLINGS = 64;

export class FileTail {
  private current: TailState | undefined;
  private from: 'start' | 'end';
  private readonly maxRead: number;
  private readonly maxLine: number;

  constructor(readonly file: string, state?: TailState, options: FileTailOptions = {}) {
    this.current = state ? { ...state } : undefined;
    this.from = options.from ?? 'start';
    this.maxLine = Math.max(1, options.maxLineBytes ?? 16 << 20);
    this.maxRead = Math.max(this.maxLine, options.maxReadBytes ?? 32 << 20);
  }

  /** The position to persist (a copy), or undefined before the file was first seen. */
  get state(): TailState | undefined {
    return this.current ? { ...this.current } : undefined;
  }

  read(): TailRead {
    const result: TailRead = { lines: [], event: 'read', more: false, oversized: 0 };
    let fd: number;
    try {
      fd = fs.openSync(this.file, 'r');
    } catch {
      // Gone: what was appended to it before it was moved away may still be read.
      if (this.current) this.drainRotated(this.current, result);
      result.event = 'missing';
      // A file that appears later is a new one: read from its start.
      this.from = 'start';
      return result;
    }
    try {
      const st = fs.fstatSync(fd, { bigint: true });
      const size = Number(st.size);
      const dev = String(st.dev);
      const ino = String(st.ino);
      let state = this.current;
      if (state && (state.dev !== dev || state.ino !== ino)) {
        this.drainRotated(state, result);
        state = undefined;
        result.event = 'rotated';
      } else if (state && size < state.offset) {
        state = undefined;
        result.event = 'truncated';
      } else if (state?.head && !headMatches(fd, size, state.head)) {
        state = undefined;
        result.event = 'rotated';
      }
      if (!state) {
        state = { dev, ino, offset: this.from === 'end' && !this.current ? endOfLastLine(fd, size, this.maxLine) : 0 };
      }
      this.from = 'start';
      this.current = state;
      this.readLines(fd, size, state, result);
      state.head ??= head(fd, size);
      if (!state.head) delete state.head;
    } finally {
      fs.closeSync(fd);
    }
    return result;
  }

  /** The rest of the file `state` describes, if it still sits next to the path under a related name. */
  private drainRotated(state: TailState, result: TailRead): void {
    const dir = path.dirname(this.file);
    const base = path.basename(this.file);
    let names: string[];
    try {
      names = fs.readdirSync(dir).filter((n) => n !== base && n.startsWith(base)).slice(0, MAX_SIBLINGS);
    } catch {
      return;
    }
    for (const name of names) {
      const full = path.join(dir, name);
      const st = fs.statSync(full, { bigint: true, throwIfNoEntry: false });
      if (!st || String(st.dev) !== state.dev || String(st.ino) !== state.ino) continue;
      let fd: number;
      try {
        fd = fs.openSync(full, 'r');
      } catch {
        return;
      }
      try {
        const size = Number(st.size);
        if (size < state.offset || (state.head && !headMatches(fd, size, state.head))) return;
        do this.readLines(fd, size, state, result);
        while (result.more);
      } finally {
        fs.closeSync(fd);
      }
      return;
    }
  }

  /** Complete lines from `state.offset` (at most maxReadBytes), advancing the state past them. */
  private readLines(fd: number, size: number, state: TailState, result: TailRead): void {
    result.more = false;
    const from = state.offset;
    const to = Math.min(size, from + this.maxRead);
    if (to <= from) return;
    const buf = Buffer.allocUnsafe(to - from);
    let got = 0;
    while (got < buf.length) {
      const n = fs.readSync(fd, buf, got, buf.length - got, from + got);
      if (n === 0) break;
      got += n;
    }
    const data = buf.subarray(0, got);
    let start = 0;
    if (state.skipping) {
      const lf = data.indexOf(LF);
      if (lf < 0) {
        state.offset = from + got;
        result.more = state.offset < size;
        return;
      }
      start = lf + 1;
      delete state.skipping;
    }
    const last = data.lastIndexOf(LF);
    let end = start;
    if (last >= start) {
      for (let i = start; i <= last;) {
        const lf = data.indexOf(LF, i);
        const stop = lf > i && data[lf - 1] === CR ? lf - 1 : lf;
        if (stop > i) result.lines.push(data.toString('utf8', i, stop));
        i = lf + 1;
      }
      end = last + 1;
    }
    if (got - end >= this.maxLine) {
      // A line this long is not held: it is dropped up to its newline.
      result.oversized++;
      state.skipping = true;
      end = got;
    }
    state.offset = from + end;
    // maxReadBytes >= maxLineBytes, so a full window always made progress: asking again terminates.
    result.more = from + got < size;
  }
}

function sha256(fd: number, bytes: number): string {
  const buf = Buffer.allocUnsafe(bytes);
  const n = fs.readSync(fd, buf, 0, bytes, 0);
  return sha256Hex(buf.subarray(0, n));
}

function headMatches(fd: number, size: number, h: NonNullable<TailState['head']>): boolean {
  return size >= h.bytes && sha256(fd, h.bytes) === h.sha256;
}

/** The first line's identity, once the file has a complete first line (or 4 KiB without one). */
function head(fd: number, size: number): TailState['head'] {
  const buf = Buffer.allocUnsafe(Math.min(size, HEAD_MAX));
  const n = fs.readSync(fd, buf, 0, buf.length, 0);
  const lf = buf.subarray(0, n).indexOf(LF);
  const bytes = lf >= 0 ? lf + 1 : n === HEAD_MAX ? HEAD_MAX : 0;
  if (bytes === 0) return undefined;
  return { bytes, sha256: sha256Hex(buf.subarray(0, bytes)) };
}

/** The position after the last newline: starting at the end must not cut a line being written. */
function endOfLastLine(fd: number, size: number, window: number): number {
  const from = Math.max(0, size - window);
  const buf = Buffer.allocUnsafe(size - from);
  const n = fs.readSync(fd, buf, 0, buf.length, from);
  const lf = buf.subarray(0, n).lastIndexOf(LF);
  return lf >= 0 ? from + lf + 1 : from === 0 ? 0 : size;
}
