import * as path from 'node:path';

/**
 * `target` relative to `root`, with `/` ('' when it is `root` itself), or undefined when it is not
 * inside `root`. Lexical: resolve symlinks first where they count. A name that merely starts with
 * two dots (`..cache`) is inside.
 */
export function relativeInside(root: string, target: string): string | undefined {
  const rel = path.relative(root, target);
  if (rel === '') return '';
  const escapes = rel === '..' || rel.startsWith('..' + path.sep) || path.isAbsolute(rel);
  return escapes ? undefined : rel.split(path.sep).join('/');
}
