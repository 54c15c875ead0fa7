/**
 * The file operations the write pipeline uses, behind an interface so tests can make any of them
 * fail at a chosen moment (between writing the temporary files and renaming them, say).
 */
import * as fs from 'node:fs';
import { renameRetrying, syncDir, writeNewFile } from '../fs/atomicWrite';

export interface ConfigFs {
  /** The file's text, or null when it does not exist. */
  readText(file: string): string | null;
  /** Permission bits (e.g. 0o644), or undefined when the file does not exist. */
  mode(file: string): number | undefined;
  /** The file a path points at, following symbolic links; the path itself when it does not exist. */
  realPath(file: string): string;
  mkdirp(dir: string): void;
  /** Creates `file` (it must not exist) holding `text` with `mode`, flushed to disk before returning. */
  writeDurable(file: string, text: string, mode: number): void;
  rename(from: string, to: string): void;
  /** Deletes a file; no error when it is already gone. */
  remove(file: string): void;
  /** Flushes a folder's entries (the renames) to disk; best effort. */
  syncDir(dir: string): void;
}

const missing = (err: unknown): boolean => (err as NodeJS.ErrnoException).code === 'ENOENT';

export const nodeConfigFs: ConfigFs = {
  readText(file) {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  },
  mode(file) {
    try {
      return fs.statSync(file).mode & 0o7777;
    } catch (err) {
      if (missing(err)) return undefined;
      throw err;
    }
  },
  realPath(file) {
    try {
      return fs.realpathSync(file);
    } catch (err) {
      if (missing(err)) return file;
      throw err;
    }
  },
  mkdirp(dir) {
    fs.mkdirSync(dir, { recursive: true });
  },
  writeDurable(file, text, mode) {
    writeNewFile(file, text, mode);
  },
  rename(from, to) {
    renameRetrying(from, to);
  },
  remove(file) {
    fs.rmSync(file, { force: true });
  },
  syncDir(dir) {
    syncDir(dir);
  },
};
