/**
 * checks.toml's `protect` globs for the gate (Harness option `protectedGlobs`), read on every call
 * but parsed again only when the file changed. A file that no longer parses keeps the last globs
 * that did: a typo by the user must not drop the protection of the tests.
 */
import * as fs from 'node:fs';
import { checksFilePath, parseChecksFile } from './checksFile';

export function protectedGlobsReader(workspaceFolder: string): () => readonly string[] {
  const file = checksFilePath(workspaceFolder);
  let stamp = '';
  let globs: readonly string[] = [];
  return () => {
    let text: string | undefined;
    let next = 'missing';
    try {
      // Missing is the common case: asked without an exception (its stack costs more than the call).
      const st = fs.statSync(file, { throwIfNoEntry: false });
      if (st) next = `${st.mtimeMs}:${st.size}:${st.ino}`;
      if (next === stamp) return globs;
      if (st) text = fs.readFileSync(file, 'utf8');
    } catch {
      next = 'missing';
      if (next === stamp) return globs;
    }
    stamp = next;
    if (text === undefined) {
      globs = [];
      return globs;
    }
    const parsed = parseChecksFile(text, file);
    if (!parsed.syntaxError) globs = parsed.protect;
    return globs;
  };
}
