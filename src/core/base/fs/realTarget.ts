import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Where `abs` really lands: the deepest existing ancestor's real path plus the rest, following
 * dangling symlinks too, since writing through one creates its target. Undefined on a symlink loop.
 */
export function realTarget(abs: string): string | undefined {
  const rest: string[] = [];
  let current = abs;
  for (let hops = 0; hops < 40; ) {
    try {
      return path.join(fs.realpathSync.native(current), ...rest);
    } catch {
      let link: string | undefined;
      try {
        link = fs.readlinkSync(current);
      } catch {
        link = undefined;
      }
      if (link !== undefined) {
        current = path.resolve(path.dirname(current), link);
        hops++;
        continue;
      }
      const parent = path.dirname(current);
      if (parent === current) return path.join(current, ...rest);
      rest.unshift(path.basename(current));
      current = parent;
    }
  }
  return undefined; // a symlink loop: the caller decides
}
