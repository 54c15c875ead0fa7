/**
 * The event log as a hash chain, so that tampering shows: each line carries `prev`, the SHA-256 of
 * the line before it as it is on disk (across rotated files: the first line of events.jsonl names the
 * last of events.1.jsonl), the very first line GENESIS. Editing a line changes its hash, which the
 * next line no longer names; deleting or reordering lines breaks the same link. verifyChain walks the
 * files oldest first and names the first line whose link is broken.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sha256Hex } from '../crypto/sha256';
import { EVENTS_FILE, eventFiles, KEEP_ROTATED, rotatedFile } from './format';
import type { AlfredEvent } from './types';

export const GENESIS = '0'.repeat(64);

export const lineHash = (line: string | Buffer): string => sha256Hex(line);

/** The first block read from a log's end: a line is a few hundred bytes, and this runs on every append. */
const FIRST_BLOCK = 4096;
const MAX_BLOCK = 65536;

/** The last line of `file` that is not blank, as bytes; undefined when it has none. Reads backwards, a block at a time, each larger. */
function lastLine(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = fs.fstatSync(fd).size;
    let tail = Buffer.alloc(0);
    for (let pos = size, want = FIRST_BLOCK; pos > 0; want = Math.min(want * 4, MAX_BLOCK)) {
      const n = Math.min(want, pos);
      pos -= n;
      const block = Buffer.allocUnsafe(n);
      fs.readSync(fd, block, 0, n, pos);
      tail = Buffer.concat([block, tail]);
      // The last line with something in it (blank ones, as a torn write's newline leaves, are passed over as
      // readers pass them), once it is whole: a newline before it, or the file's start.
      let end = tail.length;
      for (;;) {
        const nl = end > 0 ? tail.lastIndexOf(10, end - 1) : -1;
        if (nl < 0 && pos > 0) break; // its start is in an earlier block
        const line = tail.subarray(nl + 1, end);
        if (line.toString('utf8').trim() !== '') return line;
        if (nl < 0) break;
        end = nl;
      }
    }
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** The hash the next line appended to `dir`'s log names: of its last line (events.jsonl, else the newest rotated file), GENESIS when the log is empty. */
export function chainHead(dir: string): string {
  for (const file of [path.join(dir, EVENTS_FILE), ...Array.from({ length: KEEP_ROTATED }, (_v, i) => rotatedFile(dir, i + 1))]) {
    const line = lastLine(file);
    if (line) return lineHash(line);
  }
  return GENESIS;
}

/**
 * Links `events` onto the chain whose head is `head`: the records to write, each with `prev` right
 * after the header (`{"id","ts","type","session","role","prev",...payload}`, so that a charge stays
 * last: lineShape.ts), hashed as JSON.stringify writes them (base/fs/jsonLines.ts), and the chain's
 * head once they are written. Each event given gets its `prev` too (the bus carries them).
 */
export function linkEvents(events: readonly AlfredEvent[], head: string): { records: AlfredEvent[]; head: string } {
  let prev = head;
  const records = events.map((e) => {
    const { id, ts, type, session, role, prev: _old, ...payload } = e;
    const record = { id, ts, type, session, role, prev, ...payload } as AlfredEvent;
    e.prev = prev;
    prev = lineHash(JSON.stringify(record));
    return record;
  });
  return { records, head: prev };
}

/** Where the chain starts: GENESIS, the last line written before it existed, a file rotated away (taken as given), or nowhere (no chained line). */
export type Anchor = 'genesis' | 'unchained' | 'rotated-away' | 'empty';

export type ChainVerdict =
  | { ok: true; lines: number; files: string[]; unchained: number; anchored: Anchor }
  | { ok: false; file: string; line: number; problem: string; lines: number };

/**
 * Walks the log, oldest file first. Lines written before the chain existed (no `prev` at all, before
 * any line that has one) are counted as unchained. The first chained line must name GENESIS, unless
 * the oldest rotated file is the last one kept (older ones were dropped: its first link is taken as given).
 */
export function verifyChain(dir: string): ChainVerdict {
  const files = eventFiles(dir);
  let expected: string | undefined;
  let lines = 0;
  let unchained = 0;
  let anchored: Anchor = 'empty';
  let before: string | undefined;
  const rotatedAway = fs.existsSync(rotatedFile(dir, KEEP_ROTATED));
  for (const file of files) {
    const raw = fs.readFileSync(file);
    let n = 0;
    for (let start = 0; start < raw.length;) {
      let end = raw.indexOf(10, start);
      if (end < 0) end = raw.length;
      const bytes = raw.subarray(start, end);
      start = end + 1;
      n++;
      if (bytes.toString('utf8').trim() === '') continue;
      lines++;
      let prev: unknown;
      try {
        prev = (JSON.parse(bytes.toString('utf8')) as Record<string, unknown>).prev;
      } catch {
        return { ok: false, file, line: n, problem: 'the line is not valid JSON (changed or cut)', lines };
      }
      if (expected === undefined && prev === undefined) {
        unchained++;
        before = lineHash(bytes);
        continue;
      }
      if (typeof prev !== 'string') return { ok: false, file, line: n, problem: 'the line has no prev: a line of its own put in the chain, or its link removed', lines };
      if (expected === undefined) {
        if (before !== undefined && prev === before) anchored = 'unchained';
        else if (before === undefined && prev === GENESIS) anchored = 'genesis';
        else if (rotatedAway && file === files[0] && unchained === 0) anchored = 'rotated-away';
        else return { ok: false, file, line: n, problem: 'the first line of the chain does not start it (lines before it were removed)', lines };
      } else if (prev !== expected) {
        return { ok: false, file, line: n, problem: 'prev does not match the line before it: that line was changed, or lines between them were removed or reordered', lines };
      }
      expected = lineHash(bytes);
    }
  }
  return { ok: true, lines, files, unchained, anchored };
}
