/**
 * A bounded, breadth-first walk of the workspace for the few files the sandbox must list one by one
 * (`*.code-workspace` anywhere, protect globs without a folder to mount). Breadth first, so the
 * bound cuts the deepest entries; symlinks are not followed (no loops, no leaving the workspace).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Dependency and history folders: huge, and no agent rule lives in them. */
const SKIPPED = new Set(['node_modules', '.git']);
export const MAX_WALK_ENTRIES = 20_000;

export interface WalkEntry {
  /** Workspace-relative, with `/`. */
  rel: string;
  abs: string;
  dir: boolean;
}

interface FolderEntry {
  name: string;
  dir: boolean;
}

/**
 * A folder's entries as read, and what tells whether they still hold: adding, removing or renaming
 * an entry changes the folder's mtime and ctime (and the ctime cannot be set back, as the mtime can).
 */
interface Listing {
  dev: bigint;
  ino: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
  /** The folder had not changed for RACY_MS when it was read: a change in the same clock tick is ruled out. */
  settled: boolean;
  entries: readonly FolderEntry[];
}

/**
 * A change this close before a read (ms) may share the folder's timestamp with it (file systems keep
 * coarse times: a few ms on ext4, 1 s on HFS+, 2 s on FAT): such a listing is read again next time.
 */
const RACY_MS = 2_000;
/** Entries kept in all, across workspaces; past it the cache starts over. */
const MAX_REMEMBERED = 4 * MAX_WALK_ENTRIES;

let listings: Map<string, Listing> | undefined;
let remembered = 0;
let racyNs = BigInt(RACY_MS) * 1_000_000n;

/**
 * For a long-lived process that plans a sandbox on every shell call (the hook server): remember each
 * folder's entries and list it again only when its stat says it changed. On a workspace of 20,000
 * entries a walk reads a thousand folders, 28 ms here; checking them is a stat each. Off (the
 * default) for a process that walks once and exits: there the stat would only add to the read.
 */
export function rememberFolderListings(on: boolean, racyMs = RACY_MS): void {
  listings = on ? new Map() : undefined;
  remembered = 0;
  racyNs = BigInt(racyMs) * 1_000_000n;
}

function readFolder(abs: string): readonly FolderEntry[] {
  return fs.readdirSync(abs, { withFileTypes: true }).map((e) => ({ name: e.name, dir: e.isDirectory() }));
}

/** A folder's entries, from the remembered listing while its stat is unchanged. Throws when it cannot be read. */
function entriesOf(abs: string): readonly FolderEntry[] {
  if (!listings) return readFolder(abs);
  // Stat before reading: a change between the two leaves a stat older than the listing, never newer.
  const st = fs.statSync(abs, { bigint: true });
  const hit = listings.get(abs);
  if (hit && hit.settled && hit.dev === st.dev && hit.ino === st.ino && hit.mtimeNs === st.mtimeNs && hit.ctimeNs === st.ctimeNs) return hit.entries;
  const readAt = BigInt(Date.now()) * 1_000_000n;
  const entries = readFolder(abs);
  const changed = st.mtimeNs > st.ctimeNs ? st.mtimeNs : st.ctimeNs;
  if (remembered + entries.length > MAX_REMEMBERED) {
    listings.clear();
    remembered = 0;
  }
  if (hit) remembered -= hit.entries.length;
  listings.set(abs, { dev: st.dev, ino: st.ino, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs, settled: readAt - changed > racyNs, entries });
  remembered += entries.length;
  return entries;
}

/** Calls `visit` for every entry (except `root`); a `false` answer skips a folder's content. */
export function walkWorkspace(root: string, visit: (entry: WalkEntry) => boolean | void, maxEntries = MAX_WALK_ENTRIES): void {
  const queue: string[] = [''];
  let seen = 0;
  for (let i = 0; i < queue.length; i++) {
    const relDir = queue[i]!;
    let entries: readonly FolderEntry[];
    try {
      entries = entriesOf(path.join(root, relDir));
    } catch {
      continue; // unreadable or gone meanwhile: nothing of it can be listed
    }
    for (const e of entries) {
      if (++seen > maxEntries) return;
      if (SKIPPED.has(e.name)) continue;
      const rel = relDir ? `${relDir}/${e.name}` : e.name;
      if (visit({ rel, abs: path.join(root, rel), dir: e.dir }) !== false && e.dir) queue.push(rel);
    }
  }
}
