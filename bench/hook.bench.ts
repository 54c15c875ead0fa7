/**
 * (b) `alfred hook PreToolUse` end to end, as an agent runs it: the built CLI spawned with a hook
 * input on stdin, on a workspace whose state holds a 10,000-event log. Two ways, each against its own
 * copy of that state: answered by the resident hook server (`alfred serve`, as the extension runs it),
 * and without a server (the client finds none and the command line runs in process). Target, for the
 * served path: median under 1.5× the median of a bare `node -e 0`; the three are spawned in turn
 * (each order in rotation) in the same run.
 *
 * All run in a clean environment: NODE_EXTRA_CA_CERTS makes every Node 20 process load those
 * certificates at start-up (about 90 ms on a CI machine), which would hide the hook's own cost
 * behind a constant. When the caller's environment differs, it is measured too, for information.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EVENTS_FILE } from '../src/core/events/log';
import { foldLedger, writeLedger, type Ledger } from '../src/core/state/ledger';
import { stateDir } from '../src/core/state/paths';
import { finish, median, nowMs, sessionEvents, tempDir, verdict, writeEventFile } from './util';

const TARGET_RATIO = 1.5;
const RUNS = 30;
const WARMUP = 3;
const ROOT = path.resolve(__dirname, '..');
const NOT_CLEAN = ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS'];

/**
 * A copy of the built CLI, with the built-in roles where it looks for them, safe from a rebuild
 * meanwhile. Its entry alfred.cjs is what agents' hook launcher (~/.alfred/bin/alfred) runs.
 */
function copyCli(root: string): string {
  const dist = path.join(ROOT, 'dist', 'cli');
  if (!fs.existsSync(path.join(dist, 'alfred.cjs'))) throw new Error(`${dist}/alfred.cjs is missing: run node build.mjs first.`);
  fs.cpSync(dist, path.join(root, 'dist', 'cli'), { recursive: true, filter: (f) => !f.endsWith('.map') });
  fs.symlinkSync(path.join(ROOT, 'roles'), path.join(root, 'roles'));
  return path.join(root, 'dist', 'cli', 'alfred.cjs');
}

/** 10,000 events of one coder session under `home`, and the ledger they fold to. The first call rotates the full log, as it would. */
async function seedState(ws: string, home: string): Promise<{ dir: string; ledger: Ledger }> {
  const dir = stateDir(ws, { ALFRED_HOME: home });
  writeEventFile(path.join(dir, EVENTS_FILE), sessionEvents(10_000));
  const ledger = await foldLedger(dir);
  if (!ledger) throw new Error('no ledger');
  writeLedger(dir, ledger);
  return { dir, ledger };
}

/** `alfred serve` in the background, resolved once it answers (it prints its socket). */
function startServer(cli: string, env: NodeJS.ProcessEnv, cwd: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [cli, 'serve'], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('answering hook calls')) resolve(child);
    });
    child.stderr!.on('data', (chunk: Buffer) => { out += chunk.toString(); });
    child.once('exit', (code) => reject(new Error(`alfred serve exited ${code}: ${out}`)));
  });
}

type Way = 'served' | 'inProcess';
type Medians = Record<Way | 'bare', number>;

/** One hook call; with `expect`, also checks (through ALFRED_HOOK_DEBUG) which way it was answered. */
function hookCall(cli: string, input: string, env: NodeJS.ProcessEnv, cwd: string, expect?: RegExp): number {
  const t0 = nowMs();
  const r = spawnSync(process.execPath, [cli, 'hook', 'PreToolUse'], { input, env: expect ? { ...env, ALFRED_HOOK_DEBUG: '1' } : env, cwd, encoding: 'utf8' });
  const ms = nowMs() - t0;
  // Allowed: no decision (the command may come back rewritten into the kernel sandbox).
  if (r.status !== 0 || /permissionDecision/.test(r.stdout)) throw new Error(`alfred hook PreToolUse exited ${r.status}: ${r.stdout} ${r.stderr}`);
  if (expect && !expect.test(r.stderr)) throw new Error(`expected ${expect} on stderr, got: ${r.stderr}`);
  return ms;
}

function bareNode(env: NodeJS.ProcessEnv): number {
  const t0 = nowMs();
  const r = spawnSync(process.execPath, ['-e', '0'], { env });
  if (r.status !== 0) throw new Error(`node -e 0 exited ${r.status}`);
  return nowMs() - t0;
}

/** The three in turn, the order rotating each round; the warm-up writes the CLI's code cache. */
function measure(cli: string, input: string, envs: Record<Way, NodeJS.ProcessEnv>, cwd: string): Medians {
  const runs: Record<keyof Medians, () => number> = {
    bare: () => bareNode(envs.served),
    served: () => hookCall(cli, input, envs.served, cwd),
    inProcess: () => hookCall(cli, input, envs.inProcess, cwd),
  };
  const names = Object.keys(runs) as (keyof Medians)[];
  const times = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<keyof Medians, number[]>;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    for (let j = 0; j < names.length; j++) {
      const name = names[(i + j) % names.length]!;
      const ms = runs[name]();
      if (i >= WARMUP) times[name].push(ms);
    }
  }
  return { bare: median(times.bare), served: median(times.served), inProcess: median(times.inProcess) };
}

const describe = (m: Medians, way: Way): string =>
  `median ${m[way].toFixed(1)} ms | baseline node -e 0 ${m.bare.toFixed(1)} ms | ratio ${(m[way] / m.bare).toFixed(2)}×`;

async function main(): Promise<void> {
  const root = tempDir('hook');
  const cli = copyCli(root);
  const ws = path.join(root, 'ws');
  const home = path.join(root, 'home');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.mkdirSync(home);
  const base: NodeJS.ProcessEnv = { ...process.env, HOME: home, ALFRED_ROLE: '', LEAN_CTX_ROLE: '' };
  delete base.ALFRED_HOOK_DEBUG;
  delete base.ALFRED_HOOK_SERVER;
  const homes: Record<Way, string> = { served: path.join(root, 'alfred-served'), inProcess: path.join(root, 'alfred-in-process') };
  const envs = { served: { ...base, ALFRED_HOME: homes.served }, inProcess: { ...base, ALFRED_HOME: homes.inProcess } };
  const cleanOf = (env: NodeJS.ProcessEnv) => Object.fromEntries(Object.entries(env).filter(([k]) => !NOT_CLEAN.includes(k)));
  const clean = { served: cleanOf(envs.served), inProcess: cleanOf(envs.inProcess) };
  const state = { served: await seedState(ws, homes.served), inProcess: await seedState(ws, homes.inProcess) };

  const input = JSON.stringify({
    timestamp: new Date().toISOString(), hook_event_name: 'PreToolUse', session_id: 'bench-session', cwd: ws,
    transcript_path: path.join(home, 'transcript.json'), tool_name: 'run_in_terminal',
    tool_input: { command: 'npm test -- --reporter=dot', explanation: 'Run the unit tests', isBackground: false }, tool_use_id: 'toolu_01',
  });
  const server = await startServer(cli, clean.served, ws);
  let result: Medians;
  let asCalled: Medians | undefined;
  const inherited = NOT_CLEAN.filter((k) => base[k] !== undefined);
  try {
    hookCall(cli, input, clean.served, ws, /answered by the hook server/);
    hookCall(cli, input, clean.inProcess, ws, /no answer from the hook server \(ENOENT\)/);
    result = measure(cli, input, clean, ws);
    asCalled = inherited.length ? measure(cli, input, envs, ws) : undefined;
    hookCall(cli, input, clean.served, ws, /answered by the hook server/);
  } finally {
    server.kill('SIGINT');
  }
  const charged = async (way: Way) => ((await foldLedger(state[way].dir))?.usage.shell ?? 0) - state[way].ledger.usage.shell;
  const shell = { served: await charged('served'), inProcess: await charged('inProcess') };
  fs.rmSync(root, { recursive: true, force: true });

  console.log(`alfred hook PreToolUse: ${RUNS} runs each after ${WARMUP} warm-up runs, on a 10,000-event log; the ledgers charged ${shell.served} (served) and ${shell.inProcess} (in process) shell calls`);
  if (asCalled) {
    console.log(`alfred hook PreToolUse through the hook server with ${inherited.join(', ')} as set here (no target): ${describe(asCalled, 'served')}`);
    console.log(`alfred hook PreToolUse without a server with ${inherited.join(', ')} as set here (no target): ${describe(asCalled, 'inProcess')}`);
  }
  console.log(`alfred hook PreToolUse without a server, in process (no target): ${describe(result, 'inProcess')}`);
  verdict('alfred hook PreToolUse through the hook server', `${describe(result, 'served')} | target < ${TARGET_RATIO}×`, result.served / result.bare < TARGET_RATIO);
  finish();
}

void main();
