/**
 * Real paths of the many paths one sandbox plan mounts. `realpath` checks every component of every
 * path; most of them share folders (the workspace, the home folder), so here each folder is
 * resolved once and a path below a resolved folder costs one lstat: not a symlink, its real path is
 * the folder's real path and its name. Linux only: where the file system folds case (macOS,
 * Windows) `realpath` also gives each name its case on disk, so every path goes through it there.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

function realpath(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined; // missing: nothing to mount
  }
}

/** Resolves paths for one plan; make a new one per plan (the file system changes between calls). */
export class RealPaths {
  /** Path → its real path, or null when it does not exist. */
  private readonly known = new Map<string, string | null>();
  private readonly byFolder: boolean;

  constructor(platform: NodeJS.Platform = process.platform) {
    this.byFolder = platform === 'linux';
  }

  /** The real path of an absolute path; undefined when it does not exist. */
  of(p: string): string | undefined {
    const abs = path.resolve(p);
    if (!this.byFolder) return realpath(abs);
    const hit = this.known.get(abs);
    if (hit !== undefined) return hit ?? undefined;
    const found = this.resolve(abs);
    this.known.set(abs, found ?? null);
    return found;
  }

  private resolve(abs: string): string | undefined {
    const parent = path.dirname(abs);
    if (parent === abs) return realpath(abs); // the root
    const realParent = this.of(parent);
    if (realParent === undefined) return undefined;
    let st: fs.Stats | undefined;
    try {
      // Most governance paths are missing: asked without an exception (its stack costs more than the call).
      st = fs.lstatSync(abs, { throwIfNoEntry: false });
    } catch {
      return undefined;
    }
    if (!st) return undefined;
    return st.isSymbolicLink() ? realpath(abs) : path.join(realParent, path.basename(abs));
  }
}
