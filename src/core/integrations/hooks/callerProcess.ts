/**
 * The launcher's environment, read by the hook server from `/proc/<pid>/environ` (Linux): the bash
 * launcher then sends its pid instead of one header line per FORWARDED_ENV variable, a loop that
 * cost a third of a millisecond of every fast-path call. The pid is the caller's word, so the process
 * must be a launcher asking this very call: running `hook <event>`, in the folder the request names.
 * A process of another PID namespace that shares this loopback and home (a Flatpak's, a container's
 * with the host's network) could otherwise name a pid that is someone else's here.
 */
import * as fs from 'node:fs';
import { FORWARDED_ENV, type ForwardedEnv } from './serverProtocol';

const FORWARDED: ReadonlySet<string> = new Set(FORWARDED_ENV);

/** FORWARDED_ENV variables set in an environ block (NUL-separated `NAME=value`); the last of a name wins, as bash takes it. */
export function forwardedFromEnviron(block: Buffer): ForwardedEnv {
  const env: Record<string, string> = {};
  for (const entry of block.toString('utf8').split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0 && FORWARDED.has(entry.slice(0, eq))) env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return env as ForwardedEnv;
}

/** Room for one /proc file; read again, larger, in the rare case it is full. */
let buffer = Buffer.alloc(64 * 1024);

/**
 * A /proc file whole: one open, one read into a kept buffer, one close (readFileSync adds a stat and a
 * buffer of its own for each, twice the time on every hook call). The bytes are valid until the next read.
 */
function readProcFile(file: string): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    for (;;) {
      const n = fs.readSync(fd, buffer, 0, buffer.length, 0);
      if (n < buffer.length) return buffer.subarray(0, n);
      buffer = Buffer.alloc(buffer.length * 2);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The forwarded environment of process `pid`, when it is the launcher of this request: its last
 * arguments `hook <event>` and its working folder `physicalCwd`; else why not.
 */
export function callerEnv(pid: number, event: string, physicalCwd: string): { env: ForwardedEnv } | { refused: string } {
  const proc = `/proc/${pid}`;
  try {
    const args = readProcFile(`${proc}/cmdline`).toString('utf8').split('\0');
    if (args.at(-1) === '') args.pop();
    if (args.at(-2) !== 'hook' || args.at(-1) !== event) return { refused: `process ${pid} is not a launcher asking for ${event}` };
    if (fs.readlinkSync(`${proc}/cwd`) !== physicalCwd) return { refused: `process ${pid} runs in another folder` };
    return { env: forwardedFromEnviron(readProcFile(`${proc}/environ`)) };
  } catch (err) {
    return { refused: `process ${pid} could not be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
}
