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

/** Calls `visit` for every entry (except `root`); a `false` answer skips a folder's content. */
export function walkWorkspace(root: string, visit: (entry: WalkEntry) => boolean | void, maxEntries = MAX_WALK_ENTRIES): void {
  const queue: string[] = [''];
  let seen = 0;
  for (let i = 0; i < queue.length; i++) {
    const relDir = queue[i]!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(root, relDir), { withFileTypes: true });
    } catch {
      continue; // unreadable or gone meanwhile: nothing of it can be listed
    }
    for (const e of entries) {
      if (++seen > maxEntries) return;
      if (SKIPPED.has(e.name)) continue;
      const rel = relDir ? `${relDir}/${e.name}` : e.name;
      const dir = e.isDirectory();
      if (visit({ rel, abs: path.join(root, rel), dir }) !== false && dir) queue.push(rel);
    }
  }
}
