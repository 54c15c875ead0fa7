/** Output helpers: JSON for machines (`--json`), plain lines for people. */
import { readStdin, writeLine } from './fdIo';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  readStdin(): Promise<string>;
}

let pipeWatched = false;
/**
 * `alfred status | head -1`: a reader that stops early is not an error; the command ends quietly, as
 * `ls` would. The stream is watched only once it is used (its error arrives on a later tick).
 */
function writeOut(text: string): void {
  if (writeLine(1, text) || pipeWatched) return;
  pipeWatched = true;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

export const processIo: CliIo = {
  out: writeOut,
  err: (text) => writeLine(2, text),
  readStdin,
};

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** A failure the user caused (bad argument, unknown role): message only, no stack, exit 1. */
export class UsageError extends Error {}
