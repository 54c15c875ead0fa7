/**
 * ctx_tree: the workspace (or a folder of it) as an indented tree to a depth, folders first,
 * skipping ignored entries, bounded in size so a huge folder cannot flood the context.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type OpResult, ToolError } from './errors';
import { ALWAYS_SKIPPED, ignoreRulesFor } from './ignoreRules';
import { statForRead } from './read';
import { displayPath, resolveWorkspacePath } from './workspacePath';

export interface TreeInput {
  path?: string;
  depth?: number;
}

export const MAX_TREE_ENTRIES = 2000;
const DEFAULT_DEPTH = 3;

interface Entry {
  name: string;
  isDir: boolean;
  /** The target of a symbolic link, which is listed but never descended into. */
  link?: string;
}

/** Case-insensitive alphabetical, with a stable tie-break on the exact name. */
function byName(a: Entry, b: Entry): number {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

async function listFolder(abs: string): Promise<Entry[]> {
  let dirents: fs.Dirent[];
  try {
    dirents = await fs.promises.readdir(abs, { withFileTypes: true });
  } catch {
    return []; // unreadable: shown as empty rather than failing the whole tree
  }
  const entries: Entry[] = [];
  for (const d of dirents) {
    const entry: Entry = { name: d.name, isDir: d.isDirectory() };
    if (d.isSymbolicLink()) entry.link = await fs.promises.readlink(path.join(abs, d.name)).catch(() => '?');
    entries.push(entry);
  }
  const folders = entries.filter((e) => e.isDir).sort(byName);
  const files = entries.filter((e) => !e.isDir).sort(byName);
  return [...folders, ...files];
}

export async function treeOp(workspaceFolder: string, input: TreeInput = {}): Promise<OpResult> {
  const depth = input.depth ?? DEFAULT_DEPTH;
  const target = resolveWorkspacePath(workspaceFolder, input.path ?? '');
  const shown = displayPath(target.rel);
  const stats = await statForRead(target.abs, shown);
  if (!stats.isDirectory()) throw new ToolError(`${shown} is a file, not a folder. Use ctx_read to read it.`, 'not-directory');

  const rules = ignoreRulesFor(workspaceFolder);
  // Asking for an ignored folder by name is deliberate: list it, skipping only .git and node_modules.
  const rootIgnored = target.rel !== '' && rules.ignores(target.rel, true);
  const skip = (rel: string, name: string, isDir: boolean) =>
    rootIgnored ? ALWAYS_SKIPPED.has(name) : rules.ignores(rel, isDir);

  const lines = [`${shown}/`];
  const counts = { folders: 0, files: 0 };
  let truncated = false;

  const visit = async (abs: string, rel: string, level: number): Promise<void> => {
    for (const entry of await listFolder(abs)) {
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (skip(childRel, entry.name, entry.isDir)) continue;
      if (counts.folders + counts.files >= MAX_TREE_ENTRIES) {
        truncated = true;
        return;
      }
      const indent = '  '.repeat(level);
      if (entry.isDir) {
        counts.folders++;
        lines.push(`${indent}${entry.name}/`);
        if (level < depth) await visit(path.join(abs, entry.name), childRel, level + 1);
        if (truncated) return;
      } else {
        counts.files++;
        lines.push(`${indent}${entry.name}${entry.link !== undefined ? ` -> ${entry.link}` : ''}`);
      }
    }
  };
  await visit(target.abs, target.rel, 1);

  if (rootIgnored) lines.push(`(note: ${shown} is ignored by .gitignore; listed because it was asked for)`);
  if (truncated) lines.push(`… cut at ${MAX_TREE_ENTRIES} entries: list a sub-folder or use a smaller depth.`);
  else if (counts.folders + counts.files === 0) lines.push('  (empty)');
  return {
    text: lines.join('\n'),
    data: { path: target.rel, depth, entries: counts.folders + counts.files, ...counts, truncated },
  };
}
