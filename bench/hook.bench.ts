/**
 * (b) `alfred hook PreToolUse` end to end, as an agent runs it: the LAUNCHER FILE
 * (`~/.alfred/bin/alfred`, written with launcherScripts and this Node as its runtime) spawned with a
 * hook input on stdin, on a workspace whose state holds a 10,000-event log. Three ways, each against
 * its own copy of that state: answered by the resident hook server (`alfred serve`, as the extension
 * runs it) through the bash launcher's fast path (no Node start); answered by the server through the
 * Node client (a launcher without the fast path); and without a server (the bash launcher finds no
 * port, the client no socket, and the command line runs in process), also through the launcher
 * without the fast path, as before it, for comparison. Targets, against a bare
 * `node -e 0` spawned in turn in the same run (in an order shuffled each round): the fast path's median at
 * most 0.25×, no server at most 1.5×. Two floors are printed beside them, spawned the same way:
 * `bash -p -c true`, what this machine charges for starting bash at all, and the fast path against a
 * server that answers at once (instantHookServer.ts), what the launcher and one round trip to an
 * idle process cost before Alfred decides anything; and, without a server, `alfred hook` for an event
 * it does not know through the same launcher: Node started and the hook bundle loaded, nothing decided.
 *
 * All run in a clean environment: NODE_EXTRA_CA_CERTS makes every Node 20 process load those
 * certificates at start-up (about 90 ms on a CI machine), which would hide the hook's own cost
 * behind a constant. When the caller's environment differs, it is measured too, for information.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { foldLedger } from '../src/core/ledger/ledgerFold';
import type { Ledger } from '../src/core/ledger/ledgerFormat';
import { cleanOf, copyCli, hookInputTemplate, NOT_CLEAN, seedState, writeLauncher } from './hookSetup';
import { finish, median, nowMs, percentile, roundOrder, tempDir, verdict } from './util';

const NATIVE_TARGET = 0.25;
const NO_SERVER_TARGET = 1.5;
const RUNS = 30;
const WARMUP = 3;
const ROOT = path.resolve(__dirname, '..');

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

const WAYS = ['native', 'nodeClient', 'inProcess', 'inProcessSh'] as const;
type Way = (typeof WAYS)[number];
type Name = Way | 'bare' | 'bareBash' | 'instant' | 'loadOnly';
type Times = Record<Name, number[]>;

/** One untimed hook call through `launcher`, checking (through ALFRED_HOOK_DEBUG) which way it was answered. */
function checkCall(launcher: string, input: string, env: NodeJS.ProcessEnv, cwd: string, expect: RegExp): void {
  const r = spawnSync(launcher, ['hook', 'PreToolUse'], { input, env: { ...env, ALFRED_HOOK_DEBUG: '1' }, cwd, encoding: 'utf8' });
  // Allowed: no decision (the command may come back rewritten into the kernel sandbox).
  if (r.status !== 0 || /permissionDecision/.test(r.stdout)) throw new Error(`alfred hook PreToolUse exited ${r.status}: ${r.stdout} ${r.stderr}`);
  if (!expect.test(r.stderr)) throw new Error(`expected ${expect} on stderr, got: ${r.stderr}`);
}

/** A server that answers at once (instantHookServer.ts), resolved once it listens. */
function startInstantServer(alfredHome: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'instantHookServer.ts'), alfredHome], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the instant hook server exited ${code}`)));
  });
}

/** A way as bench/spawnTimer.mjs times it: what it spawns, and the exit status it must end with. */
interface TimedWay {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  input?: string;
  status: number;
  /** A regular expression its output must not match. */
  refuse?: string;
}

/** Every way, each spawned in turn by bench/spawnTimer.mjs, in an order shuffled each round; the warm-up writes the CLI's code cache. */
function measure(ways: Record<Name, TimedWay>): { times: Times; rss: number } {
  const r = spawnSync(process.execPath, [path.join(__dirname, 'spawnTimer.mjs')], {
    input: JSON.stringify({ warmup: WARMUP, runs: RUNS, ways, orders: Array.from({ length: WARMUP + RUNS }, (_, i) => roundOrder(Object.keys(ways), i)) }),
    encoding: 'utf8', maxBuffer: 64 * 1024 * 1024,
    // The spawner's own start-up does not count; without NODE_OPTIONS it loads nothing else.
    env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !NOT_CLEAN.includes(k))),
  });
  if (r.status !== 0) throw new Error(`bench/spawnTimer.mjs exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout) as { times: Times; rss: number };
}

/** Spawned by this process itself, for comparison with the spawner's: bash and `node -e 0`, a few times each in turn. */
function fromHere(env: NodeJS.ProcessEnv): { bash: number; node: number } {
  const times = { bash: [] as number[], node: [] as number[] };
  for (let i = 0; i < 10; i++) {
    for (const [name, file, args] of [['bash', '/bin/bash', ['-p', '-c', 'true']], ['node', process.execPath, ['-e', '0']]] as const) {
      const t0 = nowMs();
      spawnSync(file, args, { env });
      times[name].push(nowMs() - t0);
    }
  }
  return { bash: median(times.bash), node: median(times.node) };
}

const ratio = (t: Times, way: Way): number => median(t[way]) / median(t.bare);
const describe = (t: Times, way: Way): string =>
  `p50 ${median(t[way]).toFixed(1)} ms, p95 ${percentile(t[way], 95).toFixed(1)} ms | baseline node -e 0 p50 ${median(t.bare).toFixed(1)} ms, p95 ${percentile(t.bare, 95).toFixed(1)} ms`
  + ` | ratio p50 ${ratio(t, way).toFixed(2)}×, p95 ${(percentile(t[way], 95) / percentile(t.bare, 95)).toFixed(2)}×`;

async function main(): Promise<void> {
  const root = tempDir('hook');
  const cli = copyCli(root);
  const ws = path.join(root, 'ws');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  // No way starts a hook server of its own (hookSession.bench.ts measures that): each keeps its way.
  const base: NodeJS.ProcessEnv = { ...process.env, ALFRED_ROLE: '', LEAN_CTX_ROLE: '', ALFRED_HOOK_SERVER: 'existing' };
  delete base.ALFRED_HOOK_DEBUG;
  const envs = Object.fromEntries(WAYS.map((w): [Way, NodeJS.ProcessEnv] => [w, { ...base, HOME: path.join(root, `home-${w}`), ALFRED_HOME: path.join(root, `home-${w}`, '.alfred') }])) as Record<Way, NodeJS.ProcessEnv>;
  const clean = Object.fromEntries(WAYS.map((w) => [w, cleanOf(envs[w])])) as Record<Way, NodeJS.ProcessEnv>;
  const state = {} as Record<Way, { dir: string; ledger: Ledger }>;
  for (const w of WAYS) state[w] = await seedState(ws, envs[w].ALFRED_HOME!);

  const inputTemplate = hookInputTemplate(ws, root);
  let checks = 0;
  const checkInput = () => inputTemplate.replaceAll('{n}', `check${++checks}`).replaceAll('{ts}', new Date().toISOString());
  const fastPath: Record<Way, boolean> = { native: true, nodeClient: false, inProcess: true, inProcessSh: false };
  const launcherOf = Object.fromEntries(WAYS.map((w) => [w, writeLauncher(envs[w].HOME!, cli, fastPath[w])])) as Record<Way, string>;
  const expected: Record<Way, RegExp> = {
    native: /^alfred hook: answered by the hook server \(pid \d+\) on the launcher's fast path\n$/,
    nodeClient: /^alfred hook: answered by the hook server \(pid \d+\)\n$/,
    inProcess: /no answer on the launcher's fast path \(no hook\.tcp\).*\n.*no answer from the hook server \(ENOENT\); running in this process\n$/,
    inProcessSh: /^alfred hook: no answer from the hook server \(ENOENT\); running in this process\n$/,
  };
  // Its own home: the instant server's port file would otherwise stand in for Alfred's.
  const instantHome = path.join(root, 'home-instant');
  const instantEnv = cleanOf({ ...base, HOME: instantHome, ALFRED_HOME: path.join(instantHome, '.alfred') });
  const instantLauncher = writeLauncher(instantHome, cli, true);
  // Allowed: no decision (the command may come back rewritten into the kernel sandbox).
  const hookWay = (launcher: string, env: NodeJS.ProcessEnv): TimedWay => ({ file: launcher, args: ['hook', 'PreToolUse'], env, cwd: ws, input: inputTemplate, status: 0, refuse: 'permissionDecision' });
  const waysIn = (envOf: Record<Way, NodeJS.ProcessEnv>): Record<Name, TimedWay> => ({
    bare: { file: process.execPath, args: ['-e', '0'], env: envOf.native, status: 0 },
    // The floor of the fast path: bash itself, reading the same input and doing nothing.
    bareBash: { file: '/bin/bash', args: ['-p', '-c', 'true'], env: envOf.native, input: inputTemplate, status: 0 },
    instant: hookWay(instantLauncher, instantEnv),
    // The floor without a server: `alfred hook` for an unknown event loads the hook bundle, prints its usage and exits 1.
    loadOnly: { file: launcherOf.inProcessSh, args: ['hook', 'NoSuchEvent'], env: envOf.inProcessSh, cwd: ws, input: inputTemplate, status: 1 },
    native: hookWay(launcherOf.native, envOf.native),
    nodeClient: hookWay(launcherOf.nodeClient, envOf.nodeClient),
    inProcess: hookWay(launcherOf.inProcess, envOf.inProcess),
    inProcessSh: hookWay(launcherOf.inProcessSh, envOf.inProcessSh),
  });
  const check = () => {
    for (const w of WAYS) checkCall(launcherOf[w], checkInput(), clean[w], ws, expected[w]);
    checkCall(instantLauncher, checkInput(), instantEnv, ws, expected.native);
  };
  const servers: ChildProcess[] = [];
  let result: Times;
  let spawnerRss: number;
  let here: { bash: number; node: number };
  let asCalled: Times | undefined;
  const inherited = NOT_CLEAN.filter((k) => base[k] !== undefined);
  try {
    servers.push(await startServer(cli, clean.native, ws), await startServer(cli, clean.nodeClient, ws), await startInstantServer(instantEnv.ALFRED_HOME!, instantEnv));
    check();
    // What a call reads is kept only once it is 2 s old (src/core/base/fs/keptReads.ts): an agent's
    // workspace is older than this one, made a moment ago.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    ({ times: result, rss: spawnerRss } = measure(waysIn(clean)));
    asCalled = inherited.length ? measure(waysIn(envs)).times : undefined;
    here = fromHere(clean.native);
    check();
  } finally {
    for (const server of servers) server.kill('SIGINT');
  }
  const charged = async (way: Way) => ((await foldLedger(state[way].dir))?.usage.shell ?? 0) - state[way].ledger.usage.shell;
  const shell = Object.fromEntries(await Promise.all(WAYS.map(async (w) => [w, await charged(w)]))) as Record<Way, number>;
  fs.rmSync(root, { recursive: true, force: true });

  const label: Record<Way, string> = {
    native: 'through the hook server, on the bash launcher\'s fast path',
    nodeClient: 'through the hook server, by the Node client (launcher without the fast path)',
    inProcess: 'without a server, in process',
    inProcessSh: 'without a server, in process, through the launcher without the fast path (as before it)',
  };
  console.log(`alfred hook PreToolUse, spawning the launcher file: ${RUNS} runs each after ${WARMUP} warm-up runs, on a 10,000-event log; the ledgers charged ${WAYS.map((w) => `${shell[w]} (${w})`).join(', ')} shell calls`);
  const rss = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;
  console.log(`every way spawned by bench/spawnTimer.mjs (${rss(spawnerRss)}); spawned by this process (${rss(process.memoryUsage().rss)}) instead, for comparison (no target): bash -p -c true p50 ${here.bash.toFixed(1)} ms, node -e 0 p50 ${here.node.toFixed(1)} ms`);
  if (asCalled) for (const w of WAYS) console.log(`alfred hook PreToolUse ${label[w]}, with ${inherited.join(', ')} as set here (no target): ${describe(asCalled, w)}`);
  const floor = median(result.bareBash) / median(result.bare);
  console.log(`bash -p -c true spawned the same way, the fast path's floor (no target): p50 ${median(result.bareBash).toFixed(1)} ms, p95 ${percentile(result.bareBash, 95).toFixed(1)} ms | ratio p50 ${floor.toFixed(2)}× node -e 0`);
  const instant = median(result.instant) / median(result.bare);
  console.log(`the bash launcher against a server that answers at once (bench/instantHookServer.ts), the fast path's floor with a server (no target): p50 ${median(result.instant).toFixed(1)} ms, p95 ${percentile(result.instant, 95).toFixed(1)} ms | ratio p50 ${instant.toFixed(2)}× node -e 0`);
  const loaded = median(result.loadOnly) / median(result.bare);
  console.log(`alfred hook for an event it does not know, through the launcher without the fast path and no server: Node started and the hook bundle loaded, nothing decided, the floor without a server (no target): p50 ${median(result.loadOnly).toFixed(1)} ms, p95 ${percentile(result.loadOnly, 95).toFixed(1)} ms | ratio p50 ${loaded.toFixed(2)}× node -e 0`);
  for (const w of ['nodeClient', 'inProcessSh'] as const) console.log(`alfred hook PreToolUse ${label[w]} (no target): ${describe(result, w)}`);
  // What the server's work adds to a fast-path call, against what the target leaves it on this machine now.
  const share = median(result.native) - median(result.instant);
  const room = NATIVE_TARGET * median(result.bare) - median(result.instant);
  console.log(`the hook server's share of a fast-path call (its p50 less the instant server's, no target): ${share.toFixed(2)} ms | what ${NATIVE_TARGET}× leaves it here: ${room.toFixed(2)} ms`);
  verdict(`alfred hook PreToolUse ${label.native}`, `${describe(result, 'native')} | target ≤ ${NATIVE_TARGET}×`, ratio(result, 'native') <= NATIVE_TARGET);
  verdict(`alfred hook PreToolUse ${label.inProcess}`, `${describe(result, 'inProcess')} | target ≤ ${NO_SERVER_TARGET}×`, ratio(result, 'inProcess') <= NO_SERVER_TARGET);
  finish();
}

void main();
