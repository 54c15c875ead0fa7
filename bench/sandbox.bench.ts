/**
 * (d) What the kernel sandbox adds to every shell command: `sh -c true` spawned plain (the baseline)
 * and inside bubblewrap with the mount list ctx_shell would use, in turn, in the same run; p50 and
 * p95 of each, as a ratio and as milliseconds added. Target: under 50 ms added at the median (a
 * command's start, not its run, pays it; about 10 ms on an idle 2-core machine, 15 to 30 ms when
 * it is busy). Also shown, without a target: planning the mounts afresh (a walk of the workspace
 * for `*.code-workspace` files and protected files, and the home's lookups), and on a workspace of
 * 20,000 entries: planned afresh; kept in memory, as the hook server keeps it, with nothing changed
 * and with another entry of the home made and removed before each call; and kept in a file, as a
 * hook call without a server keeps it (fs/keptReads).
 *
 * The mount list is the real one for a copy of the sample workspace (its checks.toml `protect`
 * globs), with a temporary home holding the same agent and editor folders the real home has, so the
 * benchmark creates nothing in the real home. Skipped (and passing) where there is no sandbox.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { protectedGlobsReader } from '../src/core/protect/protectGlobs';
import { governanceHomePaths } from '../src/core/protect/agents';
import { detectSandbox, planSandbox, readOnlyPaths, type PlanOptions } from '../src/core/sandbox/index';
import { rememberReads } from '../src/core/base/fs/keptReads';
import { stateDir } from '../src/core/base/state/paths';
import { finish, median, nowMs, tempDir, verdict } from './util';

const TARGET_ADDED_MS = 50;
const RUNS = 200;
const WARMUP = 10;
const ROOT = path.resolve(__dirname, '..');

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function timed(argv: readonly string[], cwd: string): number {
  const t0 = nowMs();
  const r = spawnSync(argv[0]!, argv.slice(1), { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = nowMs() - t0;
  if (r.status !== 0) throw new Error(`${argv.slice(0, 3).join(' ')} … exited ${r.status}`);
  return ms;
}

/** A temporary home with the agent and editor folders of the real one, empty. */
function mirrorHome(root: string): string {
  const home = path.join(root, 'home');
  for (const real of governanceHomePaths(process.env, os.homedir())) {
    if (fs.existsSync(real)) fs.mkdirSync(path.join(home, path.relative(os.homedir(), real)), { recursive: true });
  }
  fs.mkdirSync(home, { recursive: true });
  return home;
}

/** A workspace of 1,000 folders of 19 files each (20,000 entries), settled: unchanged for 2 s. */
async function bigWorkspace(root: string): Promise<string> {
  const ws = path.join(root, 'big');
  for (let d = 0; d < 1000; d++) {
    const dir = path.join(ws, `pkg${d % 50}`, `mod${d}`);
    fs.mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 19; f++) fs.writeFileSync(path.join(dir, `f${f}.ts`), '');
  }
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  return ws;
}

/** `before` runs ahead of each timed plan, outside its time; `plan` plans (default: as a hook call does, kept where it can be). */
function planMedian(options: PlanOptions, runs: number, before?: () => void, plan: (o: PlanOptions) => unknown = planSandbox): number {
  for (let i = 0; i < 3; i++) plan(options);
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    before?.();
    const t0 = nowMs();
    plan(options);
    ms.push(nowMs() - t0);
  }
  return median(ms);
}

async function main(): Promise<void> {
  const found = detectSandbox(process.env);
  if (found.kind === 'none') {
    verdict('sandbox start-up', `skipped: ${found.why}`, true);
    return;
  }
  const root = tempDir('sandbox');
  try {
    const ws = path.join(root, 'ws');
    fs.cpSync(path.join(ROOT, 'test', 'fixtures', 'sample-workspace'), ws, { recursive: true });
    const home = mirrorHome(root);
    const env = { ...process.env, HOME: home, ALFRED_HOME: path.join(root, 'alfred-home') };
    const options = { role: { name: 'coder', sandbox: 'auto' as const }, workspaceFolder: ws, protectedGlobs: protectedGlobsReader(ws)(), stateDir: stateDir(ws, env), env, home };

    const planMs: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t0 = nowMs();
      readOnlyPaths(options);
      planMs.push(nowMs() - t0);
    }
    const plan = planSandbox(options);
    if (plan.kind !== 'sandboxed') throw new Error(`expected a sandbox, got ${plan.kind}`);
    const plain = ['/bin/sh', '-c', 'true'];
    const boxed = plan.argv('true', ws);

    const times = { plain: [] as number[], boxed: [] as number[] };
    for (let i = 0; i < WARMUP + RUNS; i++) {
      // Alternating, so a slower moment of the machine falls on both alike.
      const [a, b] = i % 2 ? (['plain', 'boxed'] as const) : (['boxed', 'plain'] as const);
      const ta = timed(a === 'plain' ? plain : boxed, ws);
      const tb = timed(b === 'plain' ? plain : boxed, ws);
      if (i < WARMUP) continue;
      times[a].push(ta);
      times[b].push(tb);
    }
    const p = (k: 'plain' | 'boxed', q: number) => percentile(times[k], q);
    const added50 = p('boxed', 50) - p('plain', 50);
    const added95 = p('boxed', 95) - p('plain', 95);
    const guards = boxed.filter((a) => a === '--bind').length;
    console.log(`mounts: ${plan.readOnly.length} read-only + ${guards} rename guards; the terminal line is ${plan.line('true').length} characters`);
    console.log(`sh -c true plain:   p50 ${p('plain', 50).toFixed(2)} ms, p95 ${p('plain', 95).toFixed(2)} ms`);
    console.log(`sh -c true sandbox: p50 ${p('boxed', 50).toFixed(2)} ms, p95 ${p('boxed', 95).toFixed(2)} ms`);
    console.log(`readOnlyPaths (the mount list, planned afresh): median ${median(planMs).toFixed(2)} ms, p95 ${percentile(planMs, 95).toFixed(2)} ms`);
    const big = { ...options, workspaceFolder: await bigWorkspace(root), protectedGlobs: ['**/*.test.ts'] };
    const fresh = planMedian(big, 20, undefined, readOnlyPaths);
    rememberReads(true);
    planSandbox(big);
    // What changed less than 2 s before it was read is read again (fs/keptReads): the workspace was just made.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const remembered = planMedian(big, 20);
    // A shell's history lock made and removed in the home before each call, as zsh does for each command.
    const lock = path.join(home, '.zsh_history.LOCK');
    const homeChanged = planMedian(big, 20, () => { fs.writeFileSync(lock, ''); fs.rmSync(lock); });
    rememberReads(false);
    // A process that keeps nothing in memory (a hook call without a server) keeps the plan in a file.
    const inFile = planMedian(big, 20);
    console.log(`planSandbox on 20,000 entries: median ${fresh.toFixed(1)} ms walked afresh, ${remembered.toFixed(1)} ms remembered between calls (fs/keptReads) (${(remembered / fresh).toFixed(2)}×), `
      + `${homeChanged.toFixed(1)} ms remembered with another entry of the home made and removed before each call (${(homeChanged / fresh).toFixed(2)}×), `
      + `${inFile.toFixed(1)} ms kept in a file by a process that keeps nothing in memory (${(inFile / fresh).toFixed(2)}×)`);
    verdict('sandbox start-up',
      `p50 ${(p('boxed', 50) / p('plain', 50)).toFixed(1)}× baseline (+${added50.toFixed(2)} ms) | p95 ${(p('boxed', 95) / p('plain', 95)).toFixed(1)}× (+${added95.toFixed(2)} ms) | target < +${TARGET_ADDED_MS} ms at p50`,
      added50 < TARGET_ADDED_MS);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

void main().then(finish);
