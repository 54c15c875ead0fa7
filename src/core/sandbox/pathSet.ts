/** Sets of absolute paths as mounts need them: each covered once, parents before children. */
import * as path from 'node:path';

/** Absolute, normalized, without duplicates or paths inside another one, shallowest first. */
export function outermost(paths: readonly string[]): string[] {
  const abs = new Set(paths.filter((p) => path.isAbsolute(p)).map(normalized));
  // Each path's ancestors looked up in the set: every hook call plans its mounts, and comparing
  // every pair was most of the plan's time.
  return byDepth([...abs].filter((p) => !hasAncestorIn(p, abs)));
}

/**
 * What a POSIX path needs resolved: `//`, a `.` or `..` part, a trailing `/`. A plan's paths are
 * nearly all normal already, and path.resolve over each was about 2 ms of a cold hook call (a CPU profile).
 */
const NOT_NORMAL = path.sep === '/' ? /\/\/|\/\.\.?(?:\/|$)|.\/$/ : /./;

/** An absolute path as path.resolve gives it. */
export function normalized(p: string): string {
  return NOT_NORMAL.test(p) ? path.resolve(p) : p;
}

/** `p` is in `set` or below a path of it (all absolute and normalized). */
export function coveredBy(p: string, set: ReadonlySet<string>): boolean {
  return set.has(p) || hasAncestorIn(p, set);
}

function hasAncestorIn(p: string, set: ReadonlySet<string>): boolean {
  for (let child = p, up = path.dirname(p); up !== child; child = up, up = path.dirname(up)) {
    if (set.has(up)) return true;
  }
  return false;
}

/** Shallowest first (a mount must not hide one made before it), then by name, for a stable order. */
export function byDepth(paths: readonly string[]): string[] {
  const depth = (p: string) => (p === path.parse(p).root ? 0 : p.split(path.sep).length);
  return paths
    .map((p) => ({ p, d: depth(p) }))
    .sort((a, b) => a.d - b.d || (a.p < b.p ? -1 : a.p > b.p ? 1 : 0))
    .map(({ p }) => p);
}
