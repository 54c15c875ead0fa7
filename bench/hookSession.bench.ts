/**
 * (b2) An agent session without an editor: 20 `alfred hook PreToolUse` calls in a row, each spawning
 * the LAUNCHER FILE (`~/.alfred/bin/alfred`, the bash launcher with this Node as its runtime) as an
 * agent's hook file does, on a workspace whose state holds a 10,000-event log, with no hook server
 * running when the session starts. The first call is answered in its own process and starts the
 * server (`alfred serve --on-demand`, src/cli/serverStart.ts); the calls after it take the launcher's
 * fast path once that server listens. Calls follow each other at once (an agent waits for its model
 * between them): the calls made while the server is still starting are answered in process too,
 * the worst case. Each call is timed next to a bare `node -e 0` spawned in turn in the same run, in
 * an order shuffled for each call (bench/util.ts, roundOrder), by bench/sessionTimer.mjs, which
 * stops the server after each session. Target: the median call of a session at most 0.3× that
 * `node -e 0`; the p95 (the first calls of the sessions) is printed beside it.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PORT_FILE } from '../src/core/hooks/nativeProtocol';
import { cleanOf, copyCli, hookInputTemplate, seedState, writeLauncher } from './hookSetup';
import { finish, median, percentile, roundOrder, tempDir, verdict } from './util';

const TARGET = 0.3;
const CALLS = 20;
const SESSIONS = 6;
const WARMUP = 1;

interface Timed {
  times: { bare: number[]; hook: number[] };
  byCall: number[][];
  published: boolean[][];
}

async function main(): Promise<void> {
  if (process.platform !== 'linux') {
    console.log('hookSession: Linux only (the timer reads /proc to wait for each session\'s server to stop); skipped');
    return;
  }
  const root = tempDir('hook-session');
  const cli = copyCli(root);
  const home = path.join(root, 'home');
  const alfredHome = path.join(home, '.alfred');
  // A project per session: a budget of its own (coder's 100 shell calls would not last seven sessions).
  const workspaces: string[] = [];
  for (let s = 0; s < WARMUP + SESSIONS; s++) {
    const ws = path.join(root, `ws-${s}`);
    fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
    await seedState(ws, alfredHome);
    workspaces.push(ws);
  }
  const launcher = writeLauncher(home, cli, true);
  const env = cleanOf({ ...process.env, HOME: home, ALFRED_HOME: alfredHome, ALFRED_ROLE: '', LEAN_CTX_ROLE: '' });
  delete env.ALFRED_HOOK_DEBUG;
  delete env.ALFRED_HOOK_SERVER;
  delete env.ALFRED_HOOK_SERVER_IDLE;
  const ways = {
    bare: { file: process.execPath, args: ['-e', '0'], env },
    hook: { file: launcher, args: ['hook', 'PreToolUse'], env, input: hookInputTemplate('{ws}', root) },
  };
  const orders = Array.from({ length: (WARMUP + SESSIONS) * CALLS }, (_, i) => roundOrder(Object.keys(ways), i));
  const run = spawnSync(process.execPath, [path.join(__dirname, 'sessionTimer.mjs')], {
    input: JSON.stringify({ warmup: WARMUP, sessions: SESSIONS, calls: CALLS, ways, orders, workspaces, portFile: path.join(alfredHome, 'run', PORT_FILE), socketFile: path.join(alfredHome, 'run', 'hook.sock') }),
    encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: cleanOf(process.env),
  });
  fs.rmSync(root, { recursive: true, force: true });
  if (run.status !== 0) throw new Error(`bench/sessionTimer.mjs exited ${run.status}: ${run.stderr}`);
  const { times, byCall, published } = JSON.parse(run.stdout) as Timed;

  const bare = median(times.bare);
  const p50 = median(times.hook);
  const p95 = percentile(times.hook, 95);
  const inProcess = published.map((up) => up.filter((u) => !u).length);
  console.log(`${SESSIONS} sessions of ${CALLS} calls after ${WARMUP} warm-up session, each starting without a hook server; calls made before the server published its port: ${inProcess.join(', ')} per session`);
  const at = (k: number) => `call ${k + 1} p50 ${median(byCall[k]!).toFixed(1)} ms`;
  console.log(`by position (no target): ${[0, 1, 2, 3].map(at).join(', ')}, calls 5-${CALLS} p50 ${median(byCall.slice(4).flat()).toFixed(1)} ms`);
  verdict(
    `alfred hook PreToolUse over a ${CALLS}-call session without an editor (no server at its start)`,
    `p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms | baseline node -e 0 p50 ${bare.toFixed(1)} ms, p95 ${percentile(times.bare, 95).toFixed(1)} ms`
      + ` | ratio p50 ${(p50 / bare).toFixed(2)}×, p95 ${(p95 / percentile(times.bare, 95)).toFixed(2)}× | target p50 ≤ ${TARGET}×`,
    p50 / bare <= TARGET,
  );
  finish();
}

void main();
