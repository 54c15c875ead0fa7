/**
 * `alfred trial run` as its own process: killed mid-trial and run again, it records the cut-off
 * trial `interrupted`, removes its worktree, runs only the trials never started, and every planned
 * trial ends exactly once; Ctrl-C records the running trial `interrupted` itself and exits 130.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stateDir } from '../../../src/core/base/state/paths';
import { PROVIDERS_FILE, publishJson } from '../../../src/core/base/state/published';
import { readOutcomes, outcomesPath } from '../../../src/core/trials/store';
import { startFakeModelServer, type FakeModelServer, type FakeStep } from '../../support/fakeModelServer';
import { fixtureRepo, git } from './runnerSupport';

const MAIN = path.resolve(__dirname, '../../../src/cli/main.ts');
let server: FakeModelServer;
before(async () => { server = await startFakeModelServer(); });
after(() => server.close());

const answer: FakeStep = { text: ['Done.'], usage: { inputTokens: 50, outputTokens: 2 } };
const hang: FakeStep = { text: ['never in time'], firstByteDelayMs: 120_000 };

function setUp(): { repo: string; env: NodeJS.ProcessEnv; outcomes: string } {
  const { root, repo } = fixtureRepo();
  const { NODE_TEST_CONTEXT: _t, ALFRED_ROLE: _r, LEAN_CTX_ROLE: _l, ALFRED_WORKSPACE: _w, ...base } = process.env;
  const env = { ...base, ALFRED_HOME: path.join(root, 'alfred-home'), HOME: path.join(root, 'home') };
  fs.mkdirSync(env.HOME, { recursive: true });
  // As the editor publishes alfred.providers for the command line: key references only (none here).
  publishJson(stateDir(repo, env), PROVIDERS_FILE, [{ name: 'fake', protocol: 'openai', baseUrl: `${server.url}/v1`, models: ['fake-model'] }]);
  return { repo, env, outcomes: outcomesPath(repo, 'handoff') };
}

function cli(repo: string, env: NodeJS.ProcessEnv, args: readonly string[] = ['--json']): { child: ChildProcess; done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'trial', 'run', '--workspace', repo, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => { stdout += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

/** Waits until the second trial has started and its model request is held by the server. */
async function untilSecondTrialWaits(outcomes: string, requestsBefore: number): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    const read = fs.existsSync(outcomes) ? readOutcomes(outcomes) : undefined;
    if (read?.ended.has('control/fix-add/1') && read.started.has('handoff/fix-add/1') && server.requests.length >= requestsBefore + 2) return;
    if (Date.now() - t0 > 60_000) throw new Error('the second trial never started');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const worktrees = (repo: string): string[] => git(repo, 'worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree '));

describe('alfred trial run, interrupted', () => {
  it('killed mid-trial and run again: no trial runs twice and none is lost', { timeout: 180_000 }, async () => {
    const { repo, env, outcomes } = setUp();
    server.script([answer, hang]);
    const firstRun = cli(repo, env);
    await untilSecondTrialWaits(outcomes, server.requests.length);
    firstRun.child.kill('SIGKILL');
    const killed = await firstRun.done;
    assert.equal(killed.signal, 'SIGKILL');
    assert.equal(worktrees(repo).length, 2, 'the killed run left its worktree behind');

    server.script([answer, answer]);
    const second = await cli(repo, env).done;
    assert.equal(second.code, 0, second.stderr);
    const report = JSON.parse(second.stdout) as { ran: Array<{ condition: string; trial: number; status: string }>; recordedInterrupted: Array<{ condition: string; trial: number; status: string }>; alreadyStarted: number; planned: number };
    assert.deepEqual(report.recordedInterrupted.map((o) => [`${o.condition}/${o.trial}`, o.status]), [['handoff/1', 'interrupted']]);
    assert.deepEqual(report.ran.map((o) => [`${o.condition}/${o.trial}`, o.status]), [['control/2', 'rejected'], ['handoff/2', 'rejected']]);
    assert.equal(report.planned, 4);
    assert.equal(report.alreadyStarted, 2);

    const read = readOutcomes(outcomes);
    assert.deepEqual(read.corrupt, []);
    assert.deepEqual([...read.started.keys()], ['control/fix-add/1', 'handoff/fix-add/1', 'control/fix-add/2', 'handoff/fix-add/2']);
    assert.deepEqual(read.outcomes.map((o) => [`${o.condition}/${o.task}/${o.trial}`, o.status]), [
      ['control/fix-add/1', 'rejected'], ['handoff/fix-add/1', 'interrupted'], ['control/fix-add/2', 'rejected'], ['handoff/fix-add/2', 'rejected'],
    ]);
    // The cut-off trial's fingerprint, made without a worktree, is the one its condition's other trials ran under.
    const handoffIds = read.outcomes.filter((o) => o.condition === 'handoff').map((o) => o.fingerprint.id);
    assert.equal(handoffIds.length, 2);
    assert.equal(handoffIds[0], handoffIds[1]);
    const lines = fs.readFileSync(outcomes, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string });
    // The cut-off trial's end is written by the second run, before it starts anything.
    assert.deepEqual(lines.map((l) => l.kind), ['started', 'ended', 'started', 'ended', 'started', 'ended', 'started', 'ended']);
    assert.deepEqual(worktrees(repo), [`worktree ${repo}`]);

    // A third run has nothing left to do; without --json (and no terminal) it says so in lines.
    const third = await cli(repo, env, []).done;
    assert.equal(third.code, 0, third.stderr);
    assert.equal(third.stdout, `Suite handoff: 4 trials planned, 4 already started, 0 to run.\nOutcomes: ${outcomes}\n`);
    assert.equal(readOutcomes(outcomes).outcomes.length, 4);
  });

  it('Ctrl-C records the running trial interrupted, starts no other and exits 130', { timeout: 120_000 }, async () => {
    const { repo, env, outcomes } = setUp();
    server.script([answer, hang]);
    const run = cli(repo, env, []);
    await untilSecondTrialWaits(outcomes, server.requests.length);
    run.child.kill('SIGINT');
    const ended = await run.done;
    assert.equal(ended.code, 130, ended.stderr);
    // No terminal: one line per trial (50 + 2 tokens at the fallback price of $3 / $15 per million).
    assert.match(ended.stdout, /^Suite handoff: 4 trials planned, 0 already started, 4 to run\.\n\[1\/4\] control\/fix-add\/1 rejected · 0 duplicated tool actions · 52 tokens · \$0\.0002 · \d+\.\d s\n\[2\/4\] handoff\/fix-add\/1 interrupted · 0 duplicated tool actions · 0 tokens · \$0\.0000 · \d+\.\d s\nOutcomes: .*\n {2}control: 1 rejected\n {2}handoff: 1 interrupted\n$/);
    const read = readOutcomes(outcomes);
    assert.deepEqual(read.outcomes.map((o) => [`${o.condition}/${o.trial}`, o.status]), [['control/1', 'rejected'], ['handoff/1', 'interrupted']]);
    assert.deepEqual([...read.started.keys()], ['control/fix-add/1', 'handoff/fix-add/1']);
    assert.deepEqual(worktrees(repo), [`worktree ${repo}`]);
    server.script([]);
  });
});
