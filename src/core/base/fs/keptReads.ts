/**
 * Values computed from the file system, kept while what they read is unchanged. A long-lived process
 * that asks the same question on every call (the hook server plans a sandbox for each shell call,
 * some two hundred lookups) checks instead the stat of what the last answer depended on. Everything
 * such a computation reads goes through `lookup`, `exists`, `stat`, `readdir`, `readText` or
 * `readLink` here, so nothing it depends on is left out; a kept value used inside another
 * computation passes its dependencies on to it.
 *
 * Two kinds of dependency:
 * - on a path whole (a file's content or stat, a folder's list of entries): its stat, which any write,
 *   rename, replacement or change of owner moves;
 * - on what one entry of a folder is (a lookup): first the folder's stat, which moves when any entry
 *   is added, removed, renamed or replaced; when it moved, the entries looked up are looked at again
 *   one by one, and the value is still good if each is the same entry (the same inode, type, owner
 *   and mode, or still missing). A home folder changes all the time (a shell's history, an editor's
 *   state file) while the files a sandbox plan looks for there do not.
 *
 * A process that asks once (a hook call without a server) keeps nothing in memory; it can keep a value
 * in a file instead, with what it read, under the same rule (KeptValues.get's `saved`). There the
 * environment counts by the variables read through `notedEnv`, each with its value.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { atomicWrite } from './atomicWrite';

/** `dev:ino:size:mtimeNs:ctimeNs` of a path (its target's, for a symlink), or `-` when it is missing. */
type Stamp = string;
/** Which entry a path names (identityOf), or `-` when it is missing. */
type Identity = string;
/** A folder only looked in, changed too recently to trust its stamp: its entries are checked each time. */
const UNSETTLED = '?';

/**
 * A change this close before a stat (ms) may share its timestamp with a later one (file systems keep
 * coarse times: a few ms on ext4, 1 s on HFS+, 2 s on FAT): a value that read such a path whole is not
 * kept, and the entries looked up in such a folder are checked again on each use.
 */
const RACY_MS = 2_000;

class Reads {
  /** Each path depended on: its stamp before it was first read (UNSETTLED: see above). */
  readonly stamps = new Map<string, Stamp>();
  /** Paths depended on whole: any change to their stamp counts. */
  readonly whole = new Set<string>();
  /** Folder → the entries looked up in it, and what each was then. */
  readonly entries = new Map<string, Map<string, Identity>>();
  settled = true;
  /** A folder's stamp was moved on by unchanged() (only other entries had changed). */
  refreshed = false;
  /** Each environment variable read through notedEnv, and its value then (null: unset). */
  readonly env = new Map<string, string | null>();
  /** The environment was listed: the value may depend on any variable, and is not saved in a file. */
  envListed = false;
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

/**
 * Which entry a path names, without its content or times (those move with every write): the inode,
 * type, owner and mode. A symlink's target changes only with the link, which may get the old one's
 * inode number: its size and ctime tell them apart.
 */
function identityOf(st: fs.Stats | undefined): Identity {
  if (!st) return '-';
  return `${st.dev}:${st.ino}:${st.mode}:${st.uid}:${st.gid}${st.isSymbolicLink() ? `:${st.size}:${st.ctimeMs}` : ''}`;
}

function lstatOrMissing(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined; // a file in place of a folder along the path: as missing
  }
}

/**
 * The computation under way depends on `p` whole: its stamp is noted before it is read (a change between
 * the two is seen next time). A path missing then has no content to depend on, only its absence: noted
 * as a lookup in its folder, whose one stamp covers every file looked for there (a plan looks for a
 * dozen start-up files in the home, most of them missing).
 */
function noteWhole(p: string): void {
  if (!reading) return;
  const known = reading.stamps.get(p);
  if (known === undefined) {
    const looked = reading.entries.get(path.dirname(p));
    if (looked?.get(p) === '-') return; // already noted missing
    const { stamp, racy } = stampNow(p);
    if (stamp === '-') {
      const inFolder = lookingIn(path.dirname(p))!;
      // Looked at again, after its folder's stamp: a file made in between is seen next time.
      const identity = identityOf(lstatOrMissing(p));
      if (!inFolder.has(p)) inFolder.set(p, identity);
      if (identity === '-') return;
      // A link to nothing (yet): what it will point to is depended on as well.
    }
    reading.whole.add(p);
    reading.stamps.set(p, stamp);
    if (racy) reading.settled = false;
  } else {
    reading.whole.add(p);
    if (known === UNSETTLED) reading.settled = false;
  }
}

/** The computation under way looks up entries of `dir`: the folder's stamp, noted before the lookup; the map to note each entry in. */
function lookingIn(dir: string): Map<string, Identity> | undefined {
  if (!reading) return undefined;
  if (!reading.stamps.has(dir)) {
    const { stamp, racy } = stampNow(dir);
    reading.stamps.set(dir, racy ? UNSETTLED : stamp);
  }
  let looked = reading.entries.get(dir);
  if (!looked) reading.entries.set(dir, (looked = new Map()));
  return looked;
}

/** `lstat`, or undefined when missing; what it found may be used for what the entry is (type, owner, mode), not for its size or times. */
export function lookup(p: string): fs.Stats | undefined {
  const looked = lookingIn(path.dirname(p));
  const st = lstatOrMissing(p);
  if (looked && !looked.has(p)) looked.set(p, identityOf(st));
  return st;
}

/** Whether `p` exists as an entry of its folder (a symlink counts, whatever it points to). */
export function exists(p: string): boolean {
  return lookup(p) !== undefined;
}

/** `stat` (following symlinks), or undefined when missing: depends on `p` whole. */
export function stat(p: string): fs.Stats | undefined {
  noteWhole(p);
  try {
    return fs.statSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** A folder's entries; throws as readdirSync does. Depends on the folder whole. */
export function readdir(p: string): fs.Dirent[] {
  noteWhole(p);
  return fs.readdirSync(p, { withFileTypes: true });
}

/** A file's text; throws as readFileSync does. Depends on the file whole. */
export function readText(p: string): string {
  noteWhole(p);
  return fs.readFileSync(p, 'utf8');
}

/** `readlink`; throws as readlinkSync does. Depends on the link as an entry of its folder (a link is replaced, not changed). */
export function readLink(p: string): string {
  const looked = lookingIn(path.dirname(p));
  // What the entry is, noted before its target is read when no lookup noted it yet.
  if (looked && !looked.has(p)) looked.set(p, identityOf(lstatOrMissing(p)));
  return fs.readlinkSync(p);
}

function noteVariable(env: NodeJS.ProcessEnv, name: string | symbol): void {
  if (reading && typeof name === 'string' && !reading.env.has(name)) reading.env.set(name, env[name] ?? null);
}

/**
 * `env`, each variable read from it noted (with its value) by the computation under way at the time
 * of reading, so that a value saved in a file depends on those variables alone. Listing its
 * variables (a spread, `Object.keys`) makes the value depend on all of them: it is then not saved.
 */
export function notedEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const noted = new Proxy(env, {
    get(target, name) {
      noteVariable(target, name);
      return Reflect.get(target, name);
    },
    has(target, name) {
      noteVariable(target, name);
      return Reflect.has(target, name);
    },
    getOwnPropertyDescriptor(target, name) {
      noteVariable(target, name);
      return Reflect.getOwnPropertyDescriptor(target, name);
    },
    ownKeys(target) {
      if (reading) reading.envListed = true;
      return Reflect.ownKeys(target);
    },
  });
  behindNoted.set(noted, env);
  return noted;
}

const behindNoted = new WeakMap<NodeJS.ProcessEnv, NodeJS.ProcessEnv>();

/**
 * The environment behind notedEnv, for a key that holds it whole (a KeptValues key in memory): a value
 * kept under such a key depends on what its computation reads, not on the key's listing of it.
 */
export function wholeEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return behindNoted.get(env) ?? env;
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
  for (const p of from.whole) to.whole.add(p);
  for (const [dir, looked] of from.entries) {
    const into = to.entries.get(dir);
    if (!into) to.entries.set(dir, new Map(looked));
    else for (const [entry, identity] of looked) if (!into.has(entry)) into.set(entry, identity);
  }
  if (!from.settled) to.settled = false;
  for (const [name, value] of from.env) if (!to.env.has(name)) to.env.set(name, value);
  if (from.envListed) to.envListed = true;
}

/**
 * What `compute` read, for a value kept elsewhere (the hook server's harnesses): `unchanged()` is true
 * while all of it is as it was, under the rule KeptValues keeps values by (never for a read too recent).
 */
export function readsOf<T>(compute: () => T): { value: T; unchanged: () => boolean } {
  const { value, reads } = recorded(compute);
  return { value, unchanged: () => reads.settled && unchanged(reads) };
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
   * otherwise computed afresh by `compute`, whose reads (through this module) are noted. With
   * `saved`, a process that keeps nothing in memory keeps the value in that file instead (savedValue);
   * given as a function, asked only then (naming the file may cost more than a process that keeps
   * the value in memory spends on it: a workspace's id is a realpath).
   */
  get(key: string, compute: () => T, saved?: SaveIn<T> | (() => SaveIn<T>)): T {
    const keeps = remembering || this.always;
    if (!keeps && saved) return savedValue(typeof saved === 'function' ? saved() : saved, compute);
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

let code: string | undefined;

/**
 * The running code, as its file's size and time: for the key of a value saved in a file, since a
 * value another build of Alfred saved (an update that holds more) must not stand in for this one's.
 * When the file cannot be read, a value of this process alone: nothing saved is used.
 */
export function runningCode(): string {
  if (code === undefined) {
    try {
      const st = fs.statSync(__filename);
      code = `${st.size}:${st.mtimeMs}`;
    } catch {
      code = `process ${process.pid} ${Date.now()}`;
    }
  }
  return code;
}

/** Where a process that keeps nothing in memory keeps a value, and how a value read back is checked. */
export interface SaveIn<T> {
  file: string;
  /** A folder above `file` that must exist for the value to be saved (Alfred's home): nothing is made outside it. */
  under: string;
  valid: (value: unknown) => value is T;
  /**
   * What the value depends on besides what it reads, as the file may hold it: the memory key without
   * the environment, which the file holds only as the variables read through notedEnv.
   */
  key: string;
  /** The environment those variables are compared with. */
  env: NodeJS.ProcessEnv;
}

const stores = new Set<KeptValues<unknown>>();

function unchanged(reads: Reads): boolean {
  for (const [p, stamp] of reads.stamps) {
    const now = stampNow(p);
    if (now.stamp === stamp) continue;
    const looked = reads.entries.get(p);
    if (!looked || reads.whole.has(p)) return false;
    for (const [entry, identity] of looked) if (identityOf(lstatOrMissing(entry)) !== identity) return false;
    // Only other entries changed: from this stamp on, unless it is too recent to tell a later change by.
    reads.stamps.set(p, now.racy ? UNSETTLED : now.stamp);
    if (!now.racy) reads.refreshed = true;
  }
  return true;
}

/** A kept value as a file holds it between processes (savedValue). */
interface SavedForm {
  v: 2;
  key: string;
  /** The variables read, with their values then (null: unset); never the environment whole, which may hold secrets. */
  env: Array<[string, string | null]>;
  value: unknown;
  stamps: Array<[string, Stamp]>;
  whole: string[];
  entries: Array<[string, Array<[string, Identity]>]>;
}

const isPairs = (v: unknown): v is Array<[string, string]> =>
  Array.isArray(v) && v.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string');

const isVariables = (v: unknown): v is Array<[string, string | null]> =>
  Array.isArray(v) && v.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && (typeof p[1] === 'string' || p[1] === null));

/**
 * What `text` says was read, when it is a saved form of `saved.key` whose variables have the same values
 * in `saved.env` and whose value passes `saved.valid`; else undefined.
 */
function parseSaved<T>(text: string, { key, env, valid }: SaveIn<T>): { value: T; reads: Reads } | undefined {
  let saved: Partial<SavedForm>;
  try {
    saved = JSON.parse(text) as Partial<SavedForm>;
  } catch {
    return undefined;
  }
  if (saved?.v !== 2 || saved.key !== key || !isVariables(saved.env) || !valid(saved.value) || !isPairs(saved.stamps) || !Array.isArray(saved.whole) || !Array.isArray(saved.entries)) return undefined;
  if (saved.env.some(([name, value]) => (env[name] ?? null) !== value)) return undefined;
  if (!saved.whole.every((p) => typeof p === 'string') || !saved.entries.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === 'string' && isPairs(e[1]))) return undefined;
  const reads = new Reads();
  for (const [p, stamp] of saved.stamps) reads.stamps.set(p, stamp);
  for (const p of saved.whole) reads.whole.add(p);
  for (const [dir, looked] of saved.entries) reads.entries.set(dir, new Map(looked));
  for (const [name, value] of saved.env) reads.env.set(name, value);
  // Every path a check depends on has a stamp: an entry or a whole path without one would never be checked.
  if ([...reads.whole, ...reads.entries.keys()].some((p) => !reads.stamps.has(p))) return undefined;
  return { value: saved.value, reads };
}

function savedForm(key: string, value: unknown, reads: Reads): string {
  const form: SavedForm = {
    v: 2, key, env: [...reads.env], value, stamps: [...reads.stamps], whole: [...reads.whole], entries: [...reads.entries].map(([dir, looked]) => [dir, [...looked]]),
  };
  return JSON.stringify(form);
}

/**
 * For a process that asks once (a hook call without a server): the value of `key` kept in `file`
 * from one process to the next, under the rule KeptValues keeps it by in memory. The file holds one
 * value; a value that read something too recent is not saved. Whoever can write `file` can change
 * the value: keep it where the value's consumers are already trusted (Alfred's home). A file that
 * cannot be read, parsed or written only means computing afresh.
 */
function savedValue<T>(saveIn: SaveIn<T>, compute: () => T): T {
  const { file } = saveIn;
  let text: string | undefined;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    text = undefined;
  }
  const saved = text === undefined ? undefined : parseSaved(text, saveIn);
  if (saved && unchanged(saved.reads)) {
    if (reading) passOn(saved.reads, reading);
    // The folders' new stamps saved, so the next process does not look at their entries again.
    if (saved.reads.refreshed) save(saveIn, saved.value, saved.reads);
    return saved.value;
  }
  const fresh = recorded(compute);
  if (fresh.reads.settled && !fresh.reads.envListed) save(saveIn, fresh.value, fresh.reads);
  return fresh.value;
}

function save({ file, under, key }: SaveIn<unknown>, value: unknown, reads: Reads): void {
  try {
    if (!fs.statSync(under, { throwIfNoEntry: false })?.isDirectory()) return;
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // No fsync: a value lost with a power cut is computed again.
    atomicWrite(file, savedForm(key, value, reads), { fsync: false });
  } catch {
    // not saved: computed afresh next time
  }
}
