/** `alfred` in-process: main(argv, io) with a fake CliIo, on a temporary workspace and ALFRED_HOME. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before } from 'node:test';
import { main } from '../../../src/cli/main';
import type { CliIo } from '../../../src/cli/io';

export interface Run {
  code: number;
  /** Each out() call, as written. */
  out: string[];
  err: string[];
  stdout: string;
  stderr: string;
}

const ENV_KEYS = ['ALFRED_HOME', 'HOME', 'USERPROFILE', 'ALFRED_ROLE', 'LEAN_CTX_ROLE', 'ALFRED_WORKSPACE', 'ALFRED_HOOK_SERVER'] as const;

/**
 * Points ALFRED_HOME and HOME at temporary folders for the file's tests (restored after), so
 * neither the user's state nor their roles are touched. A hook call the tests run starts no hook
 * server of its own (ALFRED_HOOK_SERVER=existing): it would outlive the test and answer the next.
 */
export function isolateEnv(): { root: string } {
  const ctx = { root: '' };
  const saved: Partial<Record<(typeof ENV_KEYS)[number], string>> = {};
  before(() => {
    ctx.root = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-cli-'));
    for (const k of ENV_KEYS) saved[k] = process.env[k];
    for (const k of ['ALFRED_ROLE', 'LEAN_CTX_ROLE', 'ALFRED_WORKSPACE'] as const) delete process.env[k];
    process.env.ALFRED_HOOK_SERVER = 'existing';
    process.env.ALFRED_HOME = path.join(ctx.root, 'alfred-home');
    process.env.HOME = process.env.USERPROFILE = path.join(ctx.root, 'home');
    fs.mkdirSync(process.env.HOME, { recursive: true });
  });
  after(() => {
    for (const k of ENV_KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    fs.rmSync(ctx.root, { recursive: true, force: true });
  });
  return ctx;
}

let counter = 0;

/** A new, empty workspace folder under the isolated root, with optional files. */
export function newWorkspace(root: string, files: Record<string, string> = {}): string {
  const ws = path.join(root, `ws-${++counter}`);
  fs.mkdirSync(ws, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  }
  return ws;
}

export async function run(argv: string[], stdin = ''): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (t) => void out.push(t), err: (t) => void err.push(t), readStdin: async () => stdin };
  const code = await main(argv, io);
  return { code, out, err, stdout: out.join('\n'), stderr: err.join('\n') };
}
