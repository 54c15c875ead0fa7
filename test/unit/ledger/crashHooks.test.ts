import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readEvents } from '../../../src/core/base/events/read';
import { foldLedger } from '../../../src/core/ledger/ledgerFold';
import { accountingOf, readLedger } from '../../../src/core/ledger/ledgerFormat';
import { recordEvents } from '../../../src/core/ledger/ledgerStore';
import { stateDir } from '../../../src/core/base/state/paths';
import { rng } from '../../support/rng';

const ROOT = path.resolve(__dirname, '../../..');
const ROUNDS = 3;
const HOOKS = 12;
const KILLED = 3;

/** The CLI built from the sources as they are now, in a folder of its own (dist/ is rebuilt by others). */
function buildCli(): string {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-cli-'));
  execFileSync(process.execPath, ['build.mjs', '--out', out], { cwd: ROOT, stdio: 'ignore' });
  fs.symlinkSync(path.join(ROOT, 'roles'), path.join(out, 'roles'));
  return path.join(out, 'dist', 'cli', 'alfred.cjs');
}

test(`rounds of ${HOOKS} concurrent alfred hook PreToolUse, ${KILLED} killed at random moments: the ledger stays the fold of the log`, { timeout: 180_000 }, async (t) => {
  const cli = buildCli();
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-home-'));
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-ws-'));
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, ALFRED_HOME: home, ALFRED_HOOK_SERVER: 'off' };
  const dir = stateDir(ws, env);
  const seed = Date.now();
  const random = rng(seed);
  let killedInTotal = 0;
  let behind = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const runs = Array.from({ length: HOOKS }, (_, i) => {
      const child = spawn(process.execPath, [cli, 'hook', 'PreToolUse'], { cwd: ws, env, stdio: ['pipe', 'ignore', 'ignore'] });
      // A distinct command each, so the runaway guard refuses none of them.
      child.stdin.end(JSON.stringify({ tool_name: 'run_in_terminal', tool_input: { command: `echo ${round}-${i}` }, cwd: ws }));
      return { child, done: new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal))) };
    });
    const victims = new Set<number>();
    while (victims.size < KILLED) victims.add(Math.floor(random() * HOOKS));
    for (const i of victims) setTimeout(() => runs[i]!.child.kill('SIGKILL'), Math.floor(random() * 800));
    const signals = await Promise.all(runs.map((r) => r.done));
    killedInTotal += signals.filter((s) => s === 'SIGKILL').length;

    const allowed = readEvents(dir, { types: ['ToolCall'] }).events.filter((e) => e.decision === 'allow').length;
    if (readLedger(dir)?.usage.shell !== allowed) behind++;
    // The next transaction (here one that adds no event) catches the ledger up; a dead holder's lock is waited out.
    await recordEvents(dir, 'coder', []);
    const ledger = readLedger(dir)!;
    assert.equal(ledger.usage.shell, allowed, `round ${round} (seed ${seed}): one shell call per allowed ToolCall in the log`);
    assert.deepEqual(accountingOf(ledger), accountingOf(await foldLedger(dir)), `round ${round} (seed ${seed})`);
  }
  assert.ok(killedInTotal > 0, 'some hooks were killed before they finished');
  t.diagnostic(`seed ${seed}: ${killedInTotal} hooks killed; the ledger was behind the log after ${behind} of ${ROUNDS} rounds`);
});
