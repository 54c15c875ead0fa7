/**
 * (b2) An agent session without an editor: 20 `alfred hook PreToolUse` calls, each spawning the
 * LAUNCHER FILE (`~/.alfred/bin/alfred`, the bash launcher with this Node as its runtime) as an
 * agent's hook file does, on a workspace whose state holds a 10,000-event log, with no hook server
 * running when the session starts. The first call is answered in its own process and starts the
 * server (`alfred serve --on-demand`, src/cli/serverStart.ts); the calls after it take the launcher's
 * fast path once that server listens (those made before are answered in process too). Each call is
 * timed next to a bare `node -e 0` spawned in turn in the same run, in an order shuffled for each
 * call (bench/util.ts, roundOrder), by bench/sessionTimer.mjs, which stops the server after each
 * session. Target: the median call of the sessions at most 0.3× that `node -e 0`, with the calls
 * paced as an agent makes them; their p95 (the first calls) is printed beside it, and the same
 * sessions with their calls back to back, the worst case.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PORT_FILE } from '../src/core/integrations/hooks/nativeProtocol';
import { cleanOf, copyCli, hookInputTemplate, seedState, writeLauncher } from './hookSetup';
import { finish, median, percentile, roundOrder, tempDir, verdict } from './util';

const TARGET = 0.3;
const CALLS = 20;
/**
 * Sessions as an agent runs them: a call, then the model's turn (a round trip to its API, rarely
 * under a second; 300 ms here, the short end), then the next call. The target is on these.
 */
const PACED = { warmup: 1, sessions: 6, pauseMs: 300 };
/**
 * Calls back to back, the worst case (no target): an agent that makes many calls at once. All of
 * them come within two seconds of the server's start, while whatever a sandbox plan read that changed
 * that recently is read again on every call (src/core/base/fs/keptReads.ts), the server's own files among it.
 */
const BACK_TO_BACK = { warmup: 0, sessions: 4, pauseMs: 0 };

interface Timed {
  times: { bare: number[]; hook: number[] };
  byCall: number[][];
  published: boolean[][];
}

type Schedule = typeof PACED;

/** A home with a launcher and a project per session (coder's 100 shell calls would not last them all). */
async function setUp(root: string, cli: string, name: string, count: number): Promise<{ launcher: string; alfredHome: string; env: NodeJS.ProcessEnv; workspaces: string[] }> {
  const home = path.join(root, `home-${name}`);
  const alfredHome = path.join(home, '.alfred');
  const workspaces: string[] = [];
  for (let s = 0; s < count; s++) {
    const ws = path.join(root, `ws-${name}-${s}`);
    fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
    await seedState(ws, alfredHome);
    workspaces.push(ws);
  }
  const env = cleanOf({ ...process.env, HOME: home, ALFRED_HOME: alfredHome, ALFRED_ROLE: '', LEAN_CTX_ROLE: '' });
  for (const k of ['ALFRED_HOOK_DEBUG', 'ALFRED_HOOK_SERVER', 'ALFRED_HOOK_SERVER_IDLE']) delete env[k];
  return { launcher: writeLauncher(home, cli, true), alfredHome, env, workspaces };
}

/** The sessions of `schedule`, timed by bench/sessionTimer.mjs. */
async function sessions(root: string, cli: string, name: string, schedule: Schedule): Promise<Timed> {
  const { launcher, alfredHome, env, workspaces } = await setUp(root, cli, name, schedule.warmup + schedule.sessions);
  const ways = {
    bare: { file: process.execPath, args: ['-e', '0'], env },
    hook: { file: launcher, args: ['hook', 'PreToolUse'], env, input: hookInputTemplate('{ws}', root) },
  };
  const orders = Array.from({ length: (schedule.warmup + schedule.sessions) * CALLS }, (_, i) => roundOrder(Object.keys(ways), i));
  const run = spawnSync(process.execPath, [path.join(__dirname, 'sessionTimer.mjs')], {
    input: JSON.stringify({
      ...schedule, calls: CALLS, ways, orders, workspaces, portFile: path.join(alfredHome, 'run', PORT_FILE), socketFile: path.join(alfredHome, 'run', 'hook.sock'),
    }),
    encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: cleanOf(process.env),
  });
  if (run.status !== 0) throw new Error(`bench/sessionTimer.mjs exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout) as Timed;
}

function describe(t: Timed, schedule: Schedule): string {
  const bare = median(t.times.bare);
  const p50 = median(t.times.hook);
  const p95 = percentile(t.times.hook, 95);
  const inProcess = t.published.map((up) => up.filter((u) => !u).length);
  const at = (k: number) => `call ${k + 1} ${median(t.byCall[k]!).toFixed(1)} ms`;
  console.log(`  ${schedule.sessions} sessions after ${schedule.warmup} warm-up; calls made before the server published its port: ${inProcess.join(', ')}; p50 by position: `
    + `${[0, 1, 2, 3].map(at).join(', ')}, calls 5-${CALLS} ${median(t.byCall.slice(4).flat()).toFixed(1)} ms`);
  return `p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms | baseline node -e 0 p50 ${bare.toFixed(1)} ms, p95 ${percentile(t.times.bare, 95).toFixed(1)} ms`
    + ` | ratio p50 ${(p50 / bare).toFixed(2)}×, p95 ${(p95 / percentile(t.times.bare, 95)).toFixed(2)}×`;
}

async function main(): Promise<void> {
  if (process.platform !== 'linux') {
    console.log('hookSession: Linux only (the timer reads /proc to wait for each session\'s server to stop); skipped');
    return;
  }
  const root = tempDir('hook-session');
  try {
    const cli = copyCli(root);
    const paced = await sessions(root, cli, 'paced', PACED);
    const burst = await sessions(root, cli, 'burst', BACK_TO_BACK);
    const title = `alfred hook PreToolUse over a ${CALLS}-call session without an editor (no server at its start)`;
    const ratio = median(paced.times.hook) / median(paced.times.bare);
    console.log(`${title}, calls back to back (no target):`);
    console.log(`  ${describe(burst, BACK_TO_BACK)}`);
    console.log(`${title}, ${PACED.pauseMs} ms between calls:`);
    verdict(`  ${PACED.pauseMs} ms between calls`, `${describe(paced, PACED)} | target p50 ≤ ${TARGET}×`, ratio <= TARGET);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  finish();
}

void main();
