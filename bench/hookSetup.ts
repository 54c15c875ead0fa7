/**
 * What the hook benchmarks (hook.bench.ts, hookSession.bench.ts) share: a copy of the built command
 * line, the launcher as the extension writes it, a workspace state with a long event log, and the
 * hook input each call sends.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EVENTS_FILE } from '../src/core/base/events/format';
import { launcherScripts } from '../src/core/integrations/hooks/install';
import { foldLedger } from '../src/core/ledger/ledgerFold';
import { writeLedger, type Ledger } from '../src/core/ledger/ledgerFormat';
import { stateDir } from '../src/core/base/state/paths';
import { sessionEvents, writeEventFile } from './util';

const ROOT = path.resolve(__dirname, '..');

/**
 * Left out of the environment every call runs in: NODE_EXTRA_CA_CERTS makes every Node 20 process
 * load those certificates at start-up (about 90 ms on a CI machine), which would hide the hook's own
 * cost behind a constant.
 */
export const NOT_CLEAN = ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS'];

export const cleanOf = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(env).filter(([k]) => !NOT_CLEAN.includes(k)));

/**
 * A copy of the built CLI, with the built-in roles where it looks for them, safe from a rebuild
 * meanwhile. Its entry alfred.cjs is what agents' hook launcher (~/.alfred/bin/alfred) runs.
 */
export function copyCli(root: string): string {
  const dist = path.join(ROOT, 'dist', 'cli');
  if (!fs.existsSync(path.join(dist, 'alfred.cjs'))) throw new Error(`${dist}/alfred.cjs is missing: run node build.mjs first.`);
  fs.cpSync(dist, path.join(root, 'dist', 'cli'), { recursive: true, filter: (f) => !f.endsWith('.map') });
  fs.symlinkSync(path.join(ROOT, 'roles'), path.join(root, 'roles'));
  return path.join(root, 'dist', 'cli', 'alfred.cjs');
}

/**
 * The launcher as the extension writes it into `home`: with the fast path (bash) or without (sh). Each
 * way has a home of its own, as one user has: ways sharing a home would share its sandbox plan file,
 * which each way's Alfred home (a protected path) would rewrite on every call.
 */
export function writeLauncher(home: string, cli: string, bash: boolean): string {
  const file = path.join(home, '.alfred', 'bin', 'alfred');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, launcherScripts(process.execPath, cli, { bash }).posix, { mode: 0o755 });
  return file;
}

/** 10,000 events of one coder session under `home`, and the ledger they fold to. The first call rotates the full log, as it would. */
export async function seedState(ws: string, home: string): Promise<{ dir: string; ledger: Ledger }> {
  const dir = stateDir(ws, { ALFRED_HOME: home });
  writeEventFile(path.join(dir, EVENTS_FILE), sessionEvents(10_000));
  const ledger = await foldLedger(dir);
  if (!ledger) throw new Error('no ledger');
  writeLedger(dir, ledger);
  return { dir, ledger };
}

/**
 * A PreToolUse input with a different command each call: Alfred stops an agent that repeats one call
 * many times in a row (`{n}`: the spawner counts the calls, `{ts}`: the time).
 */
export function hookInputTemplate(ws: string, root: string): string {
  return JSON.stringify({
    timestamp: '{ts}', hook_event_name: 'PreToolUse', session_id: 'bench-session', cwd: ws,
    transcript_path: path.join(root, 'transcript.json'), tool_name: 'run_in_terminal',
    tool_input: { command: 'npm test -- --reporter=dot --grep=case{n}', explanation: 'Run the unit tests', isBackground: false }, tool_use_id: 'toolu_{n}',
  });
}
