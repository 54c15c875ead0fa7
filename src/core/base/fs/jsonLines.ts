/**
 * JSON-lines files (one JSON value a line): appended in one write under the caller's lock, read whole
 * with every unusable line skipped and reported, never fatal.
 */
import * as fs from 'node:fs';

/** A line that could not be used, and why. */
export interface CorruptLine {
  file: string;
  /** 1-based, counting blank lines. */
  line: number;
  message: string;
}

/** Where an append landed, told by the file's size just before and just after the write. */
export interface AppendedBytes {
  /** The file's inode. */
  ino: number;
  /** Its size before the write (a torn last line included). */
  before: number;
  /** Its size after the write. */
  after: number;
  /** Bytes this append wrote (a newline ending a torn line included). */
  bytes: number;
  /** `ino:size:ctimeNs` of the file right after the write: any later write, rename or truncation changes it. */
  stamp: string;
}

/** A file's stamp as AppendedBytes gives it; undefined when the file is missing. */
export function appendStamp(file: string): string | undefined {
  const st = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  return st && `${st.ino}:${st.size}:${st.ctimeNs}`;
}

/**
 * Appends records to a JSON-lines file (created 0600) in one write. A writer that crashed mid-line
 * left no newline: the new records start on a fresh line, so only that torn line is lost. Writers
 * without a common lock at worst leave a blank line, which readers pass over. When `after - before`
 * is `bytes`, nobody else wrote between the two sizes: the records are exactly `[after - bytes, after)`.
 */
export function appendJsonLines(file: string, records: readonly unknown[]): AppendedBytes | undefined {
  if (records.length === 0) return undefined;
  let data = records.map((r) => JSON.stringify(r) + '\n').join('');
  const fd = fs.openSync(file, 'a+', 0o600);
  try {
    const { size: before, ino } = fs.fstatSync(fd);
    if (before > 0) {
      const last = Buffer.alloc(1);
      fs.readSync(fd, last, 0, 1, before - 1);
      if (last[0] !== 10) data = '\n' + data;
    }
    fs.appendFileSync(fd, data);
    const now = fs.fstatSync(fd, { bigint: true });
    return { ino, before, after: Number(now.size), bytes: Buffer.byteLength(data), stamp: `${now.ino}:${now.size}:${now.ctimeNs}` };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * What a line's value is: the record, or a string saying why the value is not one. Called on each
 * parsed line in file order (`line` 1-based), so a reader may fold as it goes.
 */
export type LineCheck<T extends object> = (value: unknown, line: number) => T | string;

export interface JsonLinesRead<T extends object> {
  records: T[];
  corrupt: CorruptLine[];
}

export interface ReadJsonLinesOptions {
  /** Lines to pass over before parsing (neither record nor corrupt), e.g. another day's. */
  skip?: (raw: string) => boolean;
}

/** Reads a JSON-lines file; a missing or unreadable file reads as empty (rotated away meanwhile). */
export function readJsonLines<T extends object>(file: string, check: LineCheck<T>, options: ReadJsonLinesOptions = {}): JsonLinesRead<T> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { records: [], corrupt: [] };
  }
  return parseJsonLines(text, file, check, options);
}

/** `readJsonLines` of text already read; `file` names it in the reports. */
export function parseJsonLines<T extends object>(text: string, file: string, check: LineCheck<T>, options: ReadJsonLinesOptions = {}): JsonLinesRead<T> {
  const records: T[] = [];
  const corrupt: CorruptLine[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '' || options.skip?.(raw)) return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      corrupt.push({ file, line: i + 1, message: `not valid JSON: ${(err as Error).message}` });
      return;
    }
    const checked = check(value, i + 1);
    if (typeof checked === 'string') corrupt.push({ file, line: i + 1, message: checked });
    else records.push(checked);
  });
  return { records, corrupt };
}
