/**
 * The newest event that matches, read backwards from the end of the log in small chunks: cheap when
 * the event is recent, bounded when it is not (the dashboard asks this on every snapshot).
 */
import * as fs from 'node:fs';
import { eventFiles, parseEventLine } from './format';
import type { AlfredEvent } from './types';

export interface LastEventOptions {
  /** A line is parsed only when it contains one of these (bytes are compared, nothing decoded). */
  mustContain?: readonly string[];
  /** Stop after reading this many bytes (default 4 MiB): older events count as not found. */
  maxBytes?: number;
  /** Read size (default 64 KiB); tests pass tiny sizes to split lines across reads. */
  chunkBytes?: number;
}

const LF = 10;
const CR = 13;

export function lastEvent(dir: string, match: (e: AlfredEvent) => boolean, options: LastEventOptions = {}): AlfredEvent | undefined {
  const needles = (options.mustContain ?? []).map((s) => Buffer.from(s, 'utf8'));
  let budget = options.maxBytes ?? 4 << 20;
  const chunk = Math.max(1, options.chunkBytes ?? 64 << 10);
  for (const file of eventFiles(dir).reverse()) {
    const test = (bytes: Buffer): AlfredEvent | undefined => {
      if (needles.length > 0 && !needles.some((n) => bytes.indexOf(n) >= 0)) return undefined;
      const parsed = parseEventLine(bytes.toString('utf8'), file, 0);
      return parsed && 'id' in parsed && match(parsed) ? parsed : undefined;
    };
    const found = lastInFile(file, (line) => {
      // A lone CR ends a line too, as every other reader of the log has it (format.ts splitLines);
      // JSON never holds a raw CR, and the one before an LF leaves an empty part.
      for (let end = line.length, cr = line.lastIndexOf(CR, end - 1); ; cr = line.lastIndexOf(CR, end - 1)) {
        const hit = test(line.subarray(cr + 1, end));
        if (hit || cr < 0) return hit;
        end = cr;
      }
    }, chunk, () => (budget -= chunk) >= 0);
    if (found !== undefined) return found === null ? undefined : found;
  }
  return undefined;
}

/**
 * Calls `test` on each line of `file`, last line first. The event `test` returns, null when the read
 * budget ran out (stop looking), or undefined when the whole file was read without a match.
 */
function lastInFile(file: string, test: (line: Buffer) => AlfredEvent | undefined, chunk: number, spend: () => boolean): AlfredEvent | null | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return undefined; // rotated away meanwhile
  }
  try {
    let pos = fs.fstatSync(fd).size;
    let carry = Buffer.alloc(0); // the start of a line whose beginning is in an earlier chunk
    while (pos > 0) {
      if (!spend()) return null;
      const size = Math.min(chunk, pos);
      pos -= size;
      const read = Buffer.allocUnsafe(size);
      fs.readSync(fd, read, 0, size, pos);
      const bytes = carry.length > 0 ? Buffer.concat([read, carry]) : read;
      let end = bytes.length;
      for (let lf = bytes.lastIndexOf(LF, end - 1); lf >= 0; lf = end > 0 ? bytes.lastIndexOf(LF, end - 1) : -1) {
        const hit = test(bytes.subarray(lf + 1, end));
        if (hit) return hit;
        end = lf;
      }
      carry = Buffer.from(bytes.subarray(0, end));
    }
    return carry.length > 0 ? test(carry) : undefined;
  } finally {
    fs.closeSync(fd);
  }
}
