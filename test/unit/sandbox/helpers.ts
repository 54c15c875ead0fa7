/**
 * A temporary workspace, home and ALFRED_HOME for the sandbox tests (never the real home), and a
 * way to run a command in the sandbox planned for them.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after } from 'node:test';
import { detectSandbox, planSandbox, type SandboxPlan } from '../../../src/core/sandbox/index';
import { stateDir } from '../../../src/core/base/state/paths';

const roots: string[] = [];
after(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

/** Why the kernel tests are skipped here, or false when they run. */
export const NO_SANDBOX: string | false = (() => {
  const found = detectSandbox(process.env);
  if (found.kind === 'none') return `no kernel sandbox: ${found.why}`;
  if (found.kind !== 'bwrap') return `only bubblewrap can be tested here, found ${found.kind}`;
  return false;
})();

/** The python3 binary itself: a version manager's shim may need the real HOME, which the tests replace. */
export const PYTHON: string | undefined = (() => {
  const r = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
})();

export interface SandboxFixture {
  root: string;
  ws: string;
  home: string;
  alfredHome: string;
  stateDir: string;
  /** For the sandboxed commands: HOME and ALFRED_HOME point at the temporary folders. */
  env: NodeJS.ProcessEnv;
  plan: SandboxPlan;
  read(rel: string): string;
  write(rel: string, text: string): string;
}

export const ORIGINAL = 'assert.ok(true); // original\n';

export function tempRoot(prefix = 'alfred-sandbox-'): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  roots.push(root);
  return root;
}

/** `tests/x.test.js` protected by `tests/**`, `.alfred/roles/`, `src/`; the plan made for them. */
export function sandboxFixture(protectedGlobs: readonly string[] = ['tests/**'], wsName = 'ws'): SandboxFixture {
  const root = tempRoot();
  const ws = path.join(root, wsName);
  const home = path.join(root, 'home');
  const alfredHome = path.join(root, 'alfred-home');
  const write = (rel: string, text: string) => {
    const abs = path.join(ws, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, text);
    return abs;
  };
  write('tests/x.test.js', ORIGINAL);
  write('.alfred/roles/mine.toml', '[role]\nname = "mine"\n');
  write('src/index.js', 'module.exports = 1;\n');
  fs.mkdirSync(home);
  const env = { ...process.env, HOME: home, ALFRED_HOME: alfredHome };
  const state = stateDir(ws, env);
  const plan = planSandbox({ role: { name: 'coder', sandbox: 'auto' }, workspaceFolder: ws, protectedGlobs, stateDir: state, env, home });
  return { root, ws, home, alfredHome, stateDir: state, env, plan, write, read: (rel) => fs.readFileSync(path.join(ws, rel), 'utf8') };
}

export interface Ran {
  status: number | null;
  out: string;
}

/** Runs `command` with /bin/sh in the fixture's sandbox (argv form), in `cwd` (default: the workspace). */
export function runIn(f: SandboxFixture, command: string, cwd = f.ws): Ran {
  if (f.plan.kind !== 'sandboxed') throw new Error(`not sandboxed: ${f.plan.kind}`);
  const [file, ...args] = f.plan.argv(command, cwd);
  const r = spawnSync(file!, args, { cwd, env: f.env, encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** The three forms a command runs in: Alfred's own shell tool (argv), the terminal's short line (the plan file) and its long one (a working folder). */
export function forms(plan: Extract<SandboxPlan, { kind: 'sandboxed' }>, command: string, ws: string): Array<[string, string, string[]]> {
  const [file, ...args] = plan.argv(command, ws);
  return [['argv', file!, args], ['short line', '/bin/sh', ['-c', plan.line(command)]], ['long line', '/bin/sh', ['-c', plan.line(command, ws)]]];
}
