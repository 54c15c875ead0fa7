/** Repository hints of packs, checked against the workspace: `Dockerfile`, `docs/`, `db/*.sql`. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import picomatch from 'picomatch';

/**
 * Whether `hint` matches the workspace folder: a trailing `/` asks for a folder, anything else for a
 * file; a `*` (only in the last segment) matches within that one folder, dot files included.
 */
export function hintMatches(workspaceFolder: string, hint: string): boolean {
  const wantDir = hint.endsWith('/');
  const rel = wantDir ? hint.slice(0, -1) : hint;
  const segments = rel.split('/');
  const last = segments.pop()!;
  const parent = path.join(workspaceFolder, ...segments);
  const isWanted = (entry: fs.Dirent | fs.Stats): boolean => (wantDir ? entry.isDirectory() : entry.isFile());
  if (!last.includes('*')) {
    try {
      return isWanted(fs.statSync(path.join(parent, last)));
    } catch {
      return false;
    }
  }
  const match = picomatch(last, { dot: true });
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(parent, { withFileTypes: true });
  } catch {
    return false;
  }
  return entries.some((d) => match(d.name) && (d.isSymbolicLink() ? followed(path.join(parent, d.name), isWanted) : isWanted(d)));
}

/** A symlink counts as what it points to; a broken one as nothing. */
function followed(file: string, isWanted: (s: fs.Stats) => boolean): boolean {
  try {
    return isWanted(fs.statSync(file));
  } catch {
    return false;
  }
}
