/** Output helpers: JSON for machines (`--json`), plain lines for people. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  readStdin(): Promise<string>;
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  readStdin: async () => {
    if (process.stdin.isTTY) return '';
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
};

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** A failure the user caused (bad argument, unknown role): message only, no stack, exit 1. */
export class UsageError extends Error {}
