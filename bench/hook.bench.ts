/**
 * (b) `alfred hook PreToolUse` end to end, as an agent runs it: the built CLI spawned with a hook
 * input on stdin, on a workspace whose state holds a 10,000-event log. Target: median under 1.5×
 * the median of a bare `node -e 0`, the two spawned alternately in the same run.
 *
 * Both run in a clean environment: NODE_EXTRA_CA_CERTS makes every Node 20 process load those
 * certificates at start-up (about 90 ms on a CI machine), which would hide the hook's own cost
 * behind a constant. When the caller's environment differs, it is measured too, for information.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EVENTS_FILE } from '../src/core/events/log';
import { foldLedger, writeLedger } from '../src/core/state/ledger';
import { stateDir } from '../src/core/state/paths';
import { finish, median, nowMs, sessionEvents, tempDir, verdict, writeEventFile } from './util';

const TARGET_RATIO = 1.5;
const RUNS = 30;
const WARMUP = 3;
const ROOT = path.resolve(__dirname, '..');
const NOT_CLEAN = ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS'];

/** A copy of the built CLI, with the built-in roles where it looks for them, safe from a rebuild meanwhile. */
function copyCli(root: string): string {
  const dist = path.join(ROOT, 'dist', 'cli');
  if (!fs.existsSync(path.join(dist, 'alfred.mjs'))) throw new Error(`${dist}/alfred.mjs is missing: run node build.mjs first.`);
  fs.cpSync(dist, path.join(root, 'dist', 'cli'), { recursive: true, filter: (f) => !f.endsWith('.map') });
  fs.symlinkSync(path.join(ROOT, 'roles'), path.join(root, 'roles'));
  return path.join(root, 'dist', 'cli', 'alfred.mjs');
}

interface Medians { hook: number; bare: number; ratio: number }

/** Hook and bare Node alternately (each goes first every other time); the warm-up writes the CLI's code cache. */
function measure(cli: string, input: string, env: NodeJS.ProcessEnv, cwd: string): Medians {
  const time = (args: string[], stdin?: string): number => {
    const t0 = nowMs();
    const r = spawnSync(process.execPath, args, { input: stdin, env, cwd, encoding: 'utf8' });
    const ms = nowMs() - t0;
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    if (stdin && r.stdout.trim() !== '{}') throw new Error(`unexpected answer: ${r.stdout}`);
    return ms;
  };
  const hook: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const pair = i % 2
      ? { hook: time([cli, 'hook', 'PreToolUse'], input), bare: time(['-e', '0']) }
      : { bare: time(['-e', '0']), hook: time([cli, 'hook', 'PreToolUse'], input) };
    if (i < WARMUP) continue;
    hook.push(pair.hook);
    bare.push(pair.bare);
  }
  return { hook: median(hook), bare: median(bare), ratio: median(hook) / median(bare) };
}

const describe = (m: Medians): string =>
  `median ${m.hook.toFixed(1)} ms | baseline node -e 0 ${m.bare.toFixed(1)} ms | ratio ${m.ratio.toFixed(2)}×`;

async function main(): Promise<void> {
  const root = tempDir('hook');
  const cli = copyCli(root);
  const ws = path.join(root, 'ws');
  const home = path.join(root, 'home');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.mkdirSync(home);
  const env: NodeJS.ProcessEnv = { ...process.env, ALFRED_HOME: path.join(root, 'alfred-home'), HOME: home, ALFRED_ROLE: '', LEAN_CTX_ROLE: '' };
  const clean = Object.fromEntries(Object.entries(env).filter(([k]) => !NOT_CLEAN.includes(k)));

  // 10,000 events of one coder session, and the ledger they fold to. The first call rotates the full log, as it would.
  const dir = stateDir(ws, env);
  writeEventFile(path.join(dir, EVENTS_FILE), sessionEvents(10_000));
  const ledger = await foldLedger(dir);
  if (!ledger) throw new Error('no ledger');
  writeLedger(dir, ledger);

  const input = JSON.stringify({
    timestamp: new Date().toISOString(), hook_event_name: 'PreToolUse', session_id: 'bench-session', cwd: ws,
    transcript_path: path.join(home, 'transcript.json'), tool_name: 'run_in_terminal',
    tool_input: { command: 'npm test -- --reporter=dot', explanation: 'Run the unit tests', isBackground: false }, tool_use_id: 'toolu_01',
  });
  const result = measure(cli, input, clean, ws);
  const inherited = NOT_CLEAN.filter((k) => env[k] !== undefined);
  const asCalled = inherited.length ? measure(cli, input, env, ws) : undefined;
  const shell = ((await foldLedger(dir))?.usage.shell ?? 0) - ledger.usage.shell;
  fs.rmSync(root, { recursive: true, force: true });

  console.log(`alfred hook PreToolUse: ${RUNS} runs after ${WARMUP} warm-up runs, on a 10,000-event log; the ledger charged ${shell} shell calls`);
  if (asCalled) console.log(`alfred hook PreToolUse with ${inherited.join(', ')} as set here (no target): ${describe(asCalled)}`);
  verdict('alfred hook PreToolUse', `${describe(result)} | target < ${TARGET_RATIO}×`, result.ratio < TARGET_RATIO);
  finish();
}

void main();
