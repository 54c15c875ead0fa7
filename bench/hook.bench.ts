/**
 * (b) `alfred hook PreToolUse` end to end, as an agent runs it: the built CLI spawned with a hook
 * input on stdin, on a workspace whose state holds a 10,000-event log. Target: median under 1.5×
 * the median of a bare `node -e 0`, the two spawned alternately in the same run.
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

/** A copy of the built CLI, with the built-in roles where it looks for them, safe from a rebuild meanwhile. */
function copyCli(root: string): string {
  const dist = path.join(ROOT, 'dist', 'cli');
  if (!fs.existsSync(path.join(dist, 'alfred.mjs'))) throw new Error(`${dist}/alfred.mjs is missing: run node build.mjs first.`);
  fs.cpSync(dist, path.join(root, 'dist', 'cli'), { recursive: true, filter: (f) => !f.endsWith('.map') });
  fs.symlinkSync(path.join(ROOT, 'roles'), path.join(root, 'roles'));
  return path.join(root, 'dist', 'cli', 'alfred.mjs');
}

async function main(): Promise<void> {
  const root = tempDir('hook');
  const CLI = copyCli(root);
  const ws = path.join(root, 'ws');
  const home = path.join(root, 'home');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.mkdirSync(home);
  const env = { ...process.env, ALFRED_HOME: path.join(root, 'alfred-home'), HOME: home, ALFRED_ROLE: '', LEAN_CTX_ROLE: '' };

  // 10,000 events of one coder session, and the ledger they fold to.
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
  const time = (args: string[], stdin?: string): number => {
    const t0 = nowMs();
    const r = spawnSync(process.execPath, args, { input: stdin, env, cwd: ws, encoding: 'utf8' });
    const ms = nowMs() - t0;
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    if (stdin && r.stdout.trim() !== '{}') throw new Error(`unexpected answer: ${r.stdout}`);
    return ms;
  };

  const hook: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    // Alternate which goes first, so neither always follows the other.
    const runHook = (): number => time([CLI, 'hook', 'PreToolUse'], input);
    const runBare = (): number => time(['-e', '0']);
    const [h, b] = i % 2 ? [runHook(), runBare()] : [runBare(), runHook()].reverse();
    if (i < WARMUP) continue;
    hook.push(h!);
    bare.push(b!);
  }
  const shell = (await foldLedger(dir))?.usage.shell ?? 0;
  fs.rmSync(root, { recursive: true, force: true });

  const ratio = median(hook) / median(bare);
  console.log(`alfred hook PreToolUse: ${RUNS} runs on a 10,000-event log, the ledger charged ${shell - ledger.usage.shell} shell calls`);
  verdict('alfred hook PreToolUse', `median ${median(hook).toFixed(1)} ms | baseline node -e 0 ${median(bare).toFixed(1)} ms | ratio ${ratio.toFixed(2)}× | target < ${TARGET_RATIO}×`, ratio < TARGET_RATIO);
  finish();
}

void main();
