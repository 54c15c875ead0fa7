/**
 * A small JSON file rewritten in place on every change, by writers that hold a lock, and read
 * without one. Replacing a file (atomicWrite.ts) costs a new inode and a rename, a journaled
 * metadata change that takes up to half a millisecond on some disks; the ledger is written on every
 * tool call. So the bytes are written over the old ones instead, and the JSON carries a checksum of
 * itself as its last member, `"check"`: a reader that catches a write halfway (old and new bytes
 * mixed) or a file a crash left torn finds a mismatch, reads again, and after a few tries calls
 * the file corrupt. A file without `"check"` (written by hand) is taken as it is. The checksum tells
 * torn bytes from whole ones, nothing more: it is no defence against a forged file (the state folder
 * is out of agents' reach: the gate and the kernel sandbox hold it).
 */
import * as fs from 'node:fs';
import { atomicWrite } from './atomicWrite';

const CHECK_KEY = 'check';
const TRIES = 5;
const WAIT_MS = 1;
// Not on Windows (0 there): a symlink planted at the path is written through rather than replaced.
const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/** FNV-1a, 32 bits, of the text's UTF-16 code units: enough to tell a torn file from a whole one. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

const serialize = (value: object): string => JSON.stringify(value, null, 2);

const CHECK_OPENS = `,\n  "${CHECK_KEY}": "`;
const checkLine = (sum: string): string => `${CHECK_OPENS}${sum}"\n}\n`;

/** The file's text: `value` (a plain object without a "check" member) with its checksum last. */
export function checkedText(value: object): string {
  const body = serialize(value);
  return `${body.slice(0, -2)}${checkLine(fnv1a(body))}`;
}

/**
 * Whether `text` is checkedText's output whole, told from the text itself: a file read on every
 * tool call is then not serialized again to be checked. False for any other form (a file formatted
 * by hand), which the slower check below still reads.
 */
function wholeAsWritten(text: string): boolean {
  const at = text.length - checkLine('00000000').length;
  if (at < 0) return false;
  const sum = text.slice(at + CHECK_OPENS.length, at + CHECK_OPENS.length + 8);
  return /^[0-9a-f]{8}$/.test(sum) && text.endsWith(checkLine(sum)) && fnv1a(`${text.slice(0, at)}\n}`) === sum;
}

/** Writes `value` over the file in place (created atomically, 0600, the first time). No fsync. */
export function writeCheckedJson(file: string, value: object): void {
  writeCheckedText(file, checkedText(value));
}

/** Writes a checkedText over the file, as writeCheckedJson does. */
export function writeCheckedText(file: string, text: string): void {
  const data = Buffer.from(text);
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDWR | NO_FOLLOW);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    atomicWrite(file, data, { fsync: false });
    return;
  }
  try {
    fs.writeSync(fd, data, 0, data.length, 0);
    fs.ftruncateSync(fd, data.length);
  } finally {
    fs.closeSync(fd);
  }
}

export type CheckedRead = { value: unknown } | { problem: string } | { missing: true };

/** One read: the parsed value with its check removed, or why it is not whole. */
function readOnce(file: string): CheckedRead {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { missing: true };
    return { problem: (err as Error).message };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { problem: `not valid JSON: ${(err as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !(CHECK_KEY in value)) return { value };
  const { [CHECK_KEY]: check, ...rest } = value as Record<string, unknown>;
  if (!wholeAsWritten(text) && check !== fnv1a(serialize(rest))) return { problem: 'its checksum does not match its content (torn by a crash, or edited by hand)' };
  return { value: rest };
}

/**
 * Reads a file written by writeCheckedJson (or a plain JSON file). A read that is not whole is tried
 * again a few times, a millisecond apart, since a writer may be halfway through.
 */
export function readCheckedJson(file: string): CheckedRead {
  let read = readOnce(file);
  for (let tries = 1; tries < TRIES && 'problem' in read; tries++) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, WAIT_MS);
    read = readOnce(file);
  }
  return read;
}
