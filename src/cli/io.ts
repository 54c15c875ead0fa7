/** Output helpers: JSON for machines (`--json`), plain lines for people. */
import fs from 'node:fs';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  readStdin(): Promise<string>;
}

async function readStream(before: Buffer[]): Promise<string> {
  const chunks = [...before];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A terminal (nothing piped in) or /dev/null; `node:tty` would load the modules avoided below. */
function stdinIsCharacterDevice(): boolean {
  try {
    return fs.fstatSync(0).isCharacterDevice();
  } catch {
    return false;
  }
}

/**
 * Reads fd 0 synchronously: touching `process.stdin` loads the net and stream modules, several
 * milliseconds of every hook call. A non-blocking stdin (EAGAIN) or any other error falls back to
 * the stream, keeping what was already read.
 */
async function readStdin(): Promise<string> {
  if (stdinIsCharacterDevice()) return '';
  const chunks: Buffer[] = [];
  try {
    for (;;) {
      const buf = Buffer.allocUnsafe(65536);
      const n = fs.readSync(0, buf, 0, buf.length, null);
      if (n === 0) break;
      chunks.push(buf.subarray(0, n));
    }
  } catch {
    return readStream(chunks);
  }
  return Buffer.concat(chunks).toString('utf8');
}

let pipeWatched = false;
/** `alfred status | head -1`: a reader that stops early is not an error; the command ends quietly, as `ls` would. */
function writeOut(text: string): void {
  if (!pipeWatched) {
    pipeWatched = true;
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw err;
    });
  }
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

export const processIo: CliIo = {
  out: writeOut,
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  readStdin,
};

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** A failure the user caused (bad argument, unknown role): message only, no stack, exit 1. */
export class UsageError extends Error {}
