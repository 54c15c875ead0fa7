/** Unified diffs for the confirmation view, with secrets hidden on both sides. */
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';
import { redactLines, type RedactOptions } from './redact';

export interface RedactedDiff {
  text: string;
  added: number;
  removed: number;
}

/**
 * The unified diff from `oldText` to `newText` (null: no file). It is computed on the real texts, so a
 * changed secret still shows as a changed line, then every line is replaced by its redacted twin.
 */
export function redactedDiff(label: string, oldText: string | null, newText: string | null, opts: RedactOptions = {}): RedactedDiff {
  const before = oldText ?? '';
  const after = newText ?? '';
  // An absolute path reads `b/home/u/…`, as git writes it, not `b//home/u/…`.
  const name = label.replace(/^\/+/, '');
  const patch = structuredPatch(
    oldText === null ? '/dev/null' : `a/${name}`,
    newText === null ? '/dev/null' : `b/${name}`,
    before, after, undefined, undefined, { context: 3 },
  );
  const oldLines = redactLines(before.split('\n'), opts);
  const newLines = redactLines(after.split('\n'), opts);
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    let i = hunk.oldStart - 1;
    let j = hunk.newStart - 1;
    hunk.lines = hunk.lines.map((line) => {
      const mark = line[0];
      if (mark === '-') { removed++; return `-${oldLines[i++] ?? ''}`; }
      if (mark === '+') { added++; return `+${newLines[j++] ?? ''}`; }
      if (mark === ' ') { i++; return ` ${newLines[j++] ?? ''}`; }
      return line; // "\ No newline at end of file"
    });
  }
  return { text: formatPatch(patch, FILE_HEADERS_ONLY), added, removed };
}
