/**
 * Writes several files so that each ends up either old or new, never truncated: every new text goes
 * to a temporary file in the target's own folder (flushed to disk) first; only then are they renamed
 * over the targets. If a rename fails, the files already replaced are put back from their previous
 * versions (read from the backup), and the error names the file that failed.
 */
import * as path from 'node:path';
import { tempPathFor } from '../fs/atomicWrite';
import type { ConfigFs } from './fsOps';

export interface FileWrite {
  path: string;
  /** null deletes the file. */
  text: string | null;
  mode: number;
}

/** A file's previous version, to roll back to. */
export interface PreviousVersion {
  path: string;
  text: string | null;
  mode?: number;
}

export const DEFAULT_FILE_MODE = 0o644;
export const SECRET_FILE_MODE = 0o600;

export class WriteFailedError extends Error {
  /** `unchanged`: every target still holds its previous text (nothing written, or all rolled back). */
  constructor(message: string, readonly file: string, readonly unchanged: boolean) {
    super(message);
    this.name = 'WriteFailedError';
  }
}

export function writeAllOrNothing(writes: readonly FileWrite[], previous: readonly PreviousVersion[], fs: ConfigFs): void {
  // Phase 1: every new text is on disk beside its target before any target changes.
  const temps = new Map<string, string>();
  let current = '';
  try {
    for (const w of writes) {
      if (w.text === null) continue;
      current = w.path;
      fs.mkdirp(path.dirname(w.path));
      const tmp = tempPathFor(w.path);
      temps.set(w.path, tmp);
      fs.writeDurable(tmp, w.text, w.mode);
    }
  } catch (err) {
    for (const tmp of temps.values()) safely(() => fs.remove(tmp));
    throw new WriteFailedError(`could not write ${current}: ${(err as Error).message}; no file was changed`, current, true);
  }

  // Phase 2: rename (or delete) one target after the other; each step is atomic on its own.
  const done: string[] = [];
  for (const w of writes) {
    try {
      if (w.text === null) fs.remove(w.path);
      else fs.rename(temps.get(w.path)!, w.path);
      temps.delete(w.path);
      done.push(w.path);
    } catch (err) {
      for (const tmp of temps.values()) safely(() => fs.remove(tmp));
      const unrestored = rollBack(done, previous, fs);
      const cause = (err as Error).message;
      if (unrestored.length === 0) {
        throw new WriteFailedError(`could not write ${w.path}: ${cause}; ${done.length ? 'the files already written were restored' : 'no file was changed'}`, w.path, true);
      }
      throw new WriteFailedError(`could not write ${w.path}: ${cause}; could not restore ${unrestored.join(', ')} (restore them with Alfred: Restore Backup)`, w.path, false);
    }
  }
  for (const dir of new Set(writes.map((w) => path.dirname(w.path)))) fs.syncDir(dir);
}

/** Puts `done` files back to their previous versions, newest change first; returns those it could not. */
function rollBack(done: readonly string[], previous: readonly PreviousVersion[], fs: ConfigFs): string[] {
  const failed: string[] = [];
  for (const file of [...done].reverse()) {
    const prev = previous.find((p) => p.path === file);
    try {
      if (!prev) throw new Error('no previous version');
      if (prev.text === null) {
        fs.remove(file);
      } else {
        const tmp = tempPathFor(file);
        fs.writeDurable(tmp, prev.text, prev.mode ?? DEFAULT_FILE_MODE);
        fs.rename(tmp, file);
      }
    } catch {
      failed.push(file);
    }
  }
  return failed;
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // Cleaning up after a failure must not hide the failure itself.
  }
}
