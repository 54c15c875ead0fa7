/**
 * The one way Alfred replaces a whole file: the new bytes go to a temporary file in the target's own
 * folder, flushed to disk, then renamed over the target, so a reader finds the old file or the new
 * one, never half of one. On Windows a rename over a file that another process holds open (a reader,
 * an antivirus or indexer) fails for a moment with EPERM, EBUSY or EACCES: it is retried.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface AtomicWriteOptions {
  /** Permission bits, exact (not reduced by the umask). Default 0o600: most of what Alfred writes is its state. */
  mode?: number;
  /** Flush the bytes to disk before the rename (default). Off only where a lost write is rebuilt anyway. */
  fsync?: boolean;
}

let written = 0;

/**
 * A fresh temporary name beside `file` (same folder, so the rename stays on one file system): unique
 * by process, time and count, without loading node:crypto into the hook launcher (cli/runBundle.ts).
 */
export function tempPathFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now().toString(36)}${(written++).toString(36)}.tmp`);
}

/** Replaces `file` with `data` atomically; on failure the target is untouched and no temporary file is left. */
export function atomicWrite(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const tmp = tempPathFor(file);
  try {
    writeNewFile(tmp, data, options.mode ?? 0o600, options.fsync ?? true);
    renameRetrying(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/** Creates `file` (it must not exist) holding `data` with exactly `mode`, flushed to disk unless `fsync` is false. */
export function writeNewFile(file: string, data: string | Uint8Array, mode: number, fsync = true): void {
  const fd = fs.openSync(file, 'wx', mode);
  try {
    fs.writeFileSync(fd, data);
    fs.fchmodSync(fd, mode); // open() applied the umask
    if (fsync) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

const TRANSIENT = new Set(['EPERM', 'EBUSY', 'EACCES']);
/** Waits between tries, about 1.5 s in all: longer than a scanner holds a file, short enough for a hook. */
const WAITS_MS = [5, 10, 20, 40, 80, 160, 320, 500];

/** Whether a rename that failed with `err` is tried again: only Windows' transient holds, a bounded number of times. */
function retried(err: unknown, platform: NodeJS.Platform, attempt: number): boolean {
  return platform === 'win32' && TRANSIENT.has((err as NodeJS.ErrnoException).code ?? '') && attempt < WAITS_MS.length;
}

/**
 * `fs.renameSync`, retried on Windows while the target is held open elsewhere. `rename` and
 * `platform` are for tests.
 */
export function renameRetrying(from: string, to: string, rename: (from: string, to: string) => void = fs.renameSync, platform: NodeJS.Platform = process.platform): void {
  for (let attempt = 0; ; attempt++) {
    try {
      rename(from, to);
      return;
    } catch (err) {
      if (!retried(err, platform, attempt)) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, WAITS_MS[attempt]!);
    }
  }
}

/**
 * atomicWrite with the disk's work off the event loop, for a file a long-lived process (the hook
 * server in the extension host) replaces on every call: on ext4 a rename over an existing file starts
 * writing the new one out, a millisecond or more that would hold up every other request and the
 * editor. The same guarantees: the old file or the new one, no temporary file left on failure.
 */
export async function atomicWriteAsync(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const tmp = tempPathFor(file);
  const mode = options.mode ?? 0o600;
  try {
    const handle = await fs.promises.open(tmp, 'wx', mode);
    try {
      await handle.writeFile(data);
      await handle.chmod(mode); // open() applied the umask
      if (options.fsync ?? true) await handle.sync();
    } finally {
      await handle.close();
    }
    for (let attempt = 0; ; attempt++) {
      try {
        await fs.promises.rename(tmp, file);
        break;
      } catch (err) {
        if (!retried(err, process.platform, attempt)) throw err;
        await new Promise((resolve) => setTimeout(resolve, WAITS_MS[attempt]));
      }
    }
  } catch (err) {
    await fs.promises.rm(tmp, { force: true });
    throw err;
  }
}

/** Flushes a folder's entries (renames) to disk; best effort: some file systems, and Windows, cannot. */
export function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // The renames themselves are still atomic.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
