/**
 * Values computed from the file system, kept while what they read is unchanged. A long-lived process
 * that asks the same question on every call (the hook server plans a sandbox for each shell call,
 * some two hundred lookups) checks instead the stat of what the last answer depended on: the folders
 * whose entries it looked at (adding, removing, renaming or replacing an entry changes the folder's
 * mtime and ctime) and the files whose content or owner it read. Everything such a computation reads
 * goes through `lookup`, `exists`, `stat`, `readdir` or `readText` here, so nothing it depends on is
 * left out; a kept value used inside another computation passes its dependencies on to it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** `dev:ino:size:mtimeNs:ctimeNs` of a path (its target's, for a symlink), or `-` when it is missing. */
type Stamp = string;

/**
 * A change this close before a stat (ms) may share its timestamp with a later one (file systems keep
 * coarse times: a few ms on ext4, 1 s on HFS+, 2 s on FAT): a value that read such a path is not kept.
 */
const RACY_MS = 2_000;

class Reads {
  readonly stamps = new Map<string, Stamp>();
  settled = true;
}

/** What the computation under way has read; undefined outside one (then nothing is noted). */
let reading: Reads | undefined;
let remembering = false;
let racyNs = BigInt(RACY_MS) * 1_000_000n;

/**
 * For a long-lived process (the hook server): keep values between calls. Off (the default) for a
 * process that asks once and exits: there the check would only add to the reading.
 */
export function rememberReads(on: boolean, racyMs = RACY_MS): void {
  remembering = on;
  racyNs = BigInt(racyMs) * 1_000_000n;
  for (const store of stores) store.clear();
}

function stampNow(p: string): { stamp: Stamp; racy: boolean } {
  let st: fs.BigIntStats | undefined;
  try {
    st = fs.statSync(p, { bigint: true, throwIfNoEntry: false });
  } catch {
    st = undefined; // unreadable (a file in place of a folder along the path): as missing
  }
  if (!st) return { stamp: '-', racy: false };
  const changed = st.mtimeNs > st.ctimeNs ? st.mtimeNs : st.ctimeNs;
  return { stamp: `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`, racy: BigInt(Date.now()) * 1_000_000n - changed <= racyNs };
}

/** The computation under way depends on the stat of `p`: noted before it is read (a change between the two is seen next time). */
function note(p: string): void {
  if (!reading || reading.stamps.has(p)) return;
  const { stamp, racy } = stampNow(p);
  reading.stamps.set(p, stamp);
  if (racy) reading.settled = false;
}

/** `lstat`, or undefined when missing: depends on the entries of its folder. */
export function lookup(p: string): fs.Stats | undefined {
  note(path.dirname(p));
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** Whether `p` exists as an entry of its folder (a symlink counts, whatever it points to). */
export function exists(p: string): boolean {
  return lookup(p) !== undefined;
}

/** `stat` (following symlinks), or undefined when missing: depends on the stat of `p` itself. */
export function stat(p: string): fs.Stats | undefined {
  note(p);
  try {
    return fs.statSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** A folder's entries; throws as readdirSync does. Depends on the folder's stat. */
export function readdir(p: string): fs.Dirent[] {
  note(p);
  return fs.readdirSync(p, { withFileTypes: true });
}

/** A file's text; throws as readFileSync does. Depends on the file's stat. */
export function readText(p: string): string {
  note(p);
  return fs.readFileSync(p, 'utf8');
}

/** `readlink`; throws as readlinkSync does. Depends on the entries of its folder (a link is replaced, not changed). */
export function readLink(p: string): string {
  note(path.dirname(p));
  return fs.readlinkSync(p);
}

/** Runs `compute`, noting what it reads (and passing that on to a computation it runs within). */
function recorded<T>(compute: () => T): { value: T; reads: Reads } {
  const outer = reading;
  const reads = new Reads();
  reading = reads;
  try {
    return { value: compute(), reads };
  } finally {
    reading = outer;
    if (outer) passOn(reads, outer);
  }
}

function passOn(from: Reads, to: Reads): void {
  for (const [p, stamp] of from.stamps) if (!to.stamps.has(p)) to.stamps.set(p, stamp);
  if (!from.settled) to.settled = false;
}

interface Kept<T> {
  value: T;
  reads: Reads;
}

/** A bounded set of kept values, by key (a question and its inputs). */
export class KeptValues<T> {
  private readonly entries = new Map<string, Kept<T>>();

  /**
   * `always`: kept in every process, not only a long-lived one: for a value asked several times in
   * one call, whose check costs less than reading it again.
   */
  constructor(private readonly max = 8, private readonly always = false) {
    stores.add(this as KeptValues<unknown>);
  }

  /**
   * The value kept for `key` while every stat it depended on is unchanged (and none was racy);
   * otherwise computed afresh by `compute`, whose reads (through this module) are noted.
   */
  get(key: string, compute: () => T): T {
    const keeps = remembering || this.always;
    if (!keeps && !reading) return compute();
    const kept = keeps ? this.entries.get(key) : undefined;
    if (kept && kept.reads.settled && unchanged(kept.reads)) {
      if (reading) passOn(kept.reads, reading);
      return kept.value;
    }
    const fresh = recorded(compute);
    if (keeps) {
      this.entries.delete(key);
      this.entries.set(key, fresh);
      if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    }
    return fresh.value;
  }

  clear(): void {
    this.entries.clear();
  }
}

const stores = new Set<KeptValues<unknown>>();

function unchanged(reads: Reads): boolean {
  for (const [p, stamp] of reads.stamps) if (stampNow(p).stamp !== stamp) return false;
  return true;
}
