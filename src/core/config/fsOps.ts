/**
 * The file operations the write pipeline uses, behind an interface so tests can make any of them
 * fail at a chosen moment (between writing the temporary files and renaming them, say).
 */
import * as fs from 'node:fs';

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
    const fd = fs.openSync(file, 'wx', mode);
    try {
      fs.writeFileSync(fd, text, 'utf8');
      // open() applies the umask; the mode asked for is the one the file must end up with.
      fs.fchmodSync(fd, mode);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  },
  rename(from, to) {
    fs.renameSync(from, to);
  },
  remove(file) {
    fs.rmSync(file, { force: true });
  },
  syncDir(dir) {
    let fd: number | undefined;
    try {
      fd = fs.openSync(dir, 'r');
      fs.fsyncSync(fd);
    } catch {
      // Some filesystems (and Windows) cannot fsync a folder; the rename itself is still atomic.
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  },
};
