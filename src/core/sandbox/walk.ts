/**
 * A bounded, breadth-first walk of the workspace for the few files the sandbox must list one by one
 * (`*.code-workspace` anywhere, protect globs without a folder to mount). Breadth first, so the
 * bound cuts the deepest entries; symlinks are not followed (no loops, no leaving the workspace).
 */
import * as path from 'node:path';
import { KeptValues, readdir } from '../base/fs/keptReads';

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
 * Folders' entries, kept (in a long-lived process: fs/keptReads) while each folder's stat is
 * unchanged: on a workspace of 20,000 entries a walk reads a thousand folders, 28 ms here; checking
 * them is a stat each.
 */
const listings = new KeptValues<readonly FolderEntry[]>(4_096);

/** A folder's entries. Throws when it cannot be read. */
function entriesOf(abs: string): readonly FolderEntry[] {
  return listings.get(abs, () => readdir(abs).map((e) => ({ name: e.name, dir: e.isDirectory() })));
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
