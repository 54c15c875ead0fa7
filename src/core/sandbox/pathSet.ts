/** Sets of absolute paths as mounts need them: each covered once, parents before children. */
import * as path from 'node:path';

/** Absolute, normalized, without duplicates or paths inside another one, shallowest first. */
export function outermost(paths: readonly string[]): string[] {
  const abs = [...new Set(paths.filter((p) => path.isAbsolute(p)).map((p) => path.resolve(p)))];
  return byDepth(abs.filter((p) => !abs.some((q) => isInside(p, q))));
}

/** Shallowest first (a mount must not hide one made before it), then by name, for a stable order. */
export function byDepth(paths: string[]): string[] {
  const depth = (p: string) => (p === path.parse(p).root ? 0 : p.split(path.sep).length);
  return paths.sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** `child` is strictly below `parent`. */
export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}
