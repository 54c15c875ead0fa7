/**
 * Real paths of the many paths one sandbox plan mounts. `realpath` checks every component of every
 * path; most of them share folders (the workspace, the home folder), so here each folder is
 * resolved once and a path below a resolved folder costs one lstat: not a symlink, its real path is
 * the folder's real path and its name; a symlink, its target resolved the same way. Every lookup goes
 * through fs/keptReads, so a plan kept between calls knows what it depended on. Where the file system
 * folds case (macOS, Windows) `realpath` also gives each name its case on disk, so there the path
 * found is passed through it at the end.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lookup, readLink } from '../base/fs/keptReads';

/** Symlinks followed for one path before giving up, as the kernel does (ELOOP). */
const MAX_HOPS = 40;

/** Resolves paths for one plan; make a new one per plan (the file system changes between calls). */
export class RealPaths {
  /** Path → its real path, or null when it does not exist. */
  private readonly known = new Map<string, string | null>();
  private readonly foldsCase: boolean;

  constructor(platform: NodeJS.Platform = process.platform) {
    this.foldsCase = platform !== 'linux';
  }

  /** The real path of an absolute path; undefined when it does not exist. */
  of(p: string): string | undefined {
    const found = this.resolved(path.resolve(p), 0);
    if (found === undefined || !this.foldsCase) return found;
    try {
      return fs.realpathSync.native(found);
    } catch {
      return undefined;
    }
  }

  private resolved(abs: string, hops: number): string | undefined {
    const hit = this.known.get(abs);
    if (hit !== undefined) return hit ?? undefined;
    const found = this.resolve(abs, hops);
    this.known.set(abs, found ?? null);
    return found;
  }

  private resolve(abs: string, hops: number): string | undefined {
    const parent = path.dirname(abs);
    if (parent === abs) return abs; // the root
    const realParent = this.resolved(parent, hops);
    if (realParent === undefined) return undefined;
    // Most governance paths are missing: asked without an exception (its stack costs more than the call).
    const st = lookup(abs);
    if (!st) return undefined;
    if (!st.isSymbolicLink()) return path.join(realParent, path.basename(abs));
    if (hops >= MAX_HOPS) return undefined;
    let target: string;
    try {
      target = readLink(abs);
    } catch {
      return undefined; // replaced meanwhile: as missing
    }
    // A relative target starts from the folder that holds the link.
    return this.resolved(path.resolve(realParent, target), hops + 1);
  }
}
