/**
 * A sandbox probe that worked, remembered across processes: without a hook server every hook call is
 * a new process, and probing bubblewrap costs a spawn (tens of milliseconds, more on a busy machine).
 *
 * Only success is remembered. A forged entry can then only claim a sandbox works: every command is
 * wrapped and, if it really does not work, fails; no entry can turn the sandbox off. The entry is tied
 * to the executable's identity (inode, size, mtime), the kernel, the user and the exact probe
 * arguments, and lasts a day, so an upgrade, a reboot into another kernel or new flags probe again.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { atomicWrite } from '../base/fs/atomicWrite';

export const PROBE_CACHE_FILE = 'sandbox-probe.json';
const MAX_AGE_MS = 24 * 3600_000;

interface Entry {
  key: string;
  at: number;
}

/** What a probe of `file args` depends on; undefined when the executable cannot be stat'ed. */
export function probeKey(file: string, args: readonly string[]): string | undefined {
  try {
    const st = fs.statSync(file);
    const uid = typeof process.getuid === 'function' ? process.getuid() : -1;
    // Kept as it is, not hashed: nothing in it is secret, and a hook call without a server would
    // otherwise hash it in JavaScript (see base/crypto/nodeCrypto.ts), most of a millisecond cold.
    return JSON.stringify([file, st.ino, st.size, Math.trunc(st.mtimeMs), os.release(), uid, args]);
  } catch {
    return undefined;
  }
}

export function rememberedSuccess(dir: string, key: string, now = Date.now()): boolean {
  return freshEntries(dir, now).some((e) => e.key === key);
}

/** The entries still fresh, from a file that may be missing or corrupt (then none). */
function freshEntries(dir: string, now: number): Entry[] {
  try {
    const entries = JSON.parse(fs.readFileSync(path.join(dir, PROBE_CACHE_FILE), 'utf8')) as unknown;
    if (!Array.isArray(entries)) return [];
    return entries.filter((e: Partial<Entry>): e is Entry => typeof e?.key === 'string' && typeof e.at === 'number' && now - e.at >= 0 && now - e.at < MAX_AGE_MS);
  } catch {
    return [];
  }
}

/** A few probes (the sandbox's, its seccomp filter's): each one's success is kept beside the others. */
const MAX_ENTRIES = 4;

/** Best effort: a folder that cannot be written only means probing again next time. */
export function rememberSuccess(dir: string, key: string, now = Date.now()): void {
  try {
    const kept = [...freshEntries(dir, now).filter((e) => e.key !== key), { key, at: now }].slice(-MAX_ENTRIES);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    atomicWrite(path.join(dir, PROBE_CACHE_FILE), `${JSON.stringify(kept)}\n`, { fsync: false });
  } catch {
    // not remembered
  }
}
