/**
 * The profiles of a VS Code user folder: each has its own `mcp.json` and settings.json in
 * `User/profiles/<id>/`. Which profile a window uses is known to no extension API and to no file the
 * command line could trust, so every profile is listed, each named as the user named it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'jsonc-parser';
import { readIfExists } from '../../base/fs/readIfExists';

export interface ProfileFiles {
  /** The folder's name under `profiles/`. */
  id: string;
  /** The name the user gave it, or its id when VS Code's state does not say. */
  name: string;
  mcp: string;
  settings: string;
}

/** The id of a stored profile's location (a URI as VS Code serialises it, or its string form). */
function idOf(location: unknown): string | undefined {
  const p = typeof location === 'string' ? location : typeof location === 'object' && location !== null ? (location as { path?: unknown }).path : undefined;
  return typeof p === 'string' ? p.replace(/\/+$/, '').split('/').pop() : undefined;
}

/**
 * Profile names by id, from `User/globalStorage/storage.json` (`userDataProfiles: [{ name, location }]`).
 * Only names are taken from it: a location never decides which file is read.
 */
function profileNames(userDir: string): Map<string, string> {
  const names = new Map<string, string>();
  const text = readIfExists(path.join(userDir, 'globalStorage', 'storage.json'));
  if (text === undefined) return names;
  const doc: unknown = parse(text, [], { allowTrailingComma: true });
  const list = typeof doc === 'object' && doc !== null ? (doc as { userDataProfiles?: unknown }).userDataProfiles : undefined;
  if (!Array.isArray(list)) return names;
  for (const p of list as { name?: unknown; location?: unknown }[]) {
    const id = idOf(p?.location);
    if (id && typeof p.name === 'string' && p.name.trim()) names.set(id, p.name.trim());
  }
  return names;
}

/**
 * Every profile folder of a user folder, sorted by id. Only real folders count: a symbolic link under
 * `profiles/` is not followed, so nothing planted there makes Alfred read a file elsewhere.
 */
export function userProfiles(userDir: string): ProfileFiles[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(userDir, 'profiles'), { withFileTypes: true });
  } catch {
    return [];
  }
  const dirs = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  if (dirs.length === 0) return [];
  const names = profileNames(userDir);
  return dirs.map((id) => {
    const dir = path.join(userDir, 'profiles', id);
    return { id, name: names.get(id) ?? id, mcp: path.join(dir, 'mcp.json'), settings: path.join(dir, 'settings.json') };
  });
}

/** How a profile is named where a server is said to be configured. */
export function profileLabel(p: ProfileFiles): string {
  return p.name === p.id ? `profile ${p.id}` : `profile "${p.name}"`;
}
