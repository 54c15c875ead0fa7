/**
 * Standard input and output through their descriptors. Touching `process.stdin` or, when it is a
 * pipe, `process.stdout` loads Node's net and stream modules: a tenth of a Node start, paid by every
 * hook call. The streams are used only where a descriptor cannot be used synchronously (a
 * non-blocking pipe, EAGAIN), keeping what was already read or written.
 */
import { fstatSync, readSync, writeSync } from 'node:fs';

/** A terminal (nothing piped in) or /dev/null; `node:tty` would load the modules avoided here. */
function stdinIsCharacterDevice(): boolean {
  try {
    return fstatSync(0).isCharacterDevice();
  } catch {
    return false;
  }
}

/** All of stdin, as UTF-8. */
export async function readStdin(): Promise<string> {
  if (stdinIsCharacterDevice()) return '';
  const chunks: Buffer[] = [];
  try {
    for (;;) {
      const buf = Buffer.allocUnsafe(65536);
      const n = readSync(0, buf, 0, buf.length, null);
      if (n === 0) break;
      chunks.push(buf.subarray(0, n));
    }
  } catch {
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export const asLine = (text: string): string => (text.endsWith('\n') ? text : `${text}\n`);

/** Descriptors whose stream took over: later lines follow it, not overtake what it still holds. */
const toStream = new Set<1 | 2>();

/**
 * Writes `text` as a line straight to the descriptor. False when it went (or its rest went) to the
 * stream (a pipe that would block, a closed reader), which then still has to drain or report its error.
 */
export function writeLine(fd: 1 | 2, text: string): boolean {
  const bytes = Buffer.from(asLine(text));
  const stream = () => (fd === 1 ? process.stdout : process.stderr);
  let written = 0;
  try {
    if (!toStream.has(fd)) {
      while (written < bytes.length) written += writeSync(fd, bytes, written);
      return true;
    }
  } catch {
    toStream.add(fd);
  }
  stream().write(bytes.subarray(written));
  return false;
}
