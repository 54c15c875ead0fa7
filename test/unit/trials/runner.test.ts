/** runSuite end to end against the loopback model server: worktrees, handoff, statuses, refusals. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { main } from '../../../src/cli/main';
import type { Comparison } from '../../../src/core/trials/compare';
import { readOutcomes } from '../../../src/core/trials/store';
import { runSuite } from '../../../src/core/trials/runner';
import { takeRunLock } from '../../../src/core/trials/runLock';
import { loadSuite, type TrialSuite } from '../../../src/core/trials/suite';
import { startFakeModelServer, type FakeModelServer, type FakeStep } from '../../support/fakeModelServer';
import { BUILTIN_PACKS, BUILTIN_ROLES, editCall, fakeProvider, fixtureRepo, git } from './runnerSupport';

let server: FakeModelServer;
before(async () => { server = await startFakeModelServer(); });
after(() => server.close());

function suiteOf(repo: string, file: string): TrialSuite {
  const parsed = loadSuite(path.join(repo, '.alfred', file));
  assert.deepEqual(parsed.problems, []);
  return parsed.suite!;
}

const options = (repo: string, trialsRoot: string, suite: TrialSuite) => ({
  workspaceFolder: repo, suite, providers: [fakeProvider(server.url)], apiKey: async () => undefined,
  builtinRolesDir: BUILTIN_ROLES, builtinPacksDir: BUILTIN_PACKS, version: 'test', trialsRoot,
});

const done: FakeStep = { text: ['Done.'], usage: { inputTokens: 200, outputTokens: 3 } };
const edit = (id: string): FakeStep => ({ toolCalls: [editCall(id)], usage: { inputTokens: 150, outputTokens: 30 } });
/** The session is cut off: the endpoint fails, and the trial goes on in a fresh session. */
const cutOff: FakeStep = { status: 500, error: 'the connection to the model was lost' };

describe('runSuite', () => {
  it('runs a suite under handoff off and on: after the cut-off session, only the handoff condition\'s resumed session knows the edit was made, and its duplicated edits drop to 0', async () => {
    const { repo, trialsRoot } = fixtureRepo();
    const suite = suiteOf(repo, 'trials.toml');
    // Order: trial 1 (control, handoff), trial 2 (control, handoff). Without the handoff a resumed
    // session knows only the task and makes the same edit again (it now fails: the text is gone).
    const control = [edit('e1'), cutOff, edit('e2'), done];
    const handoff = [edit('e1'), cutOff, done];
    server.script([...control, ...handoff, ...control, ...handoff]);
    const first = server.requests.length;

    const report = await runSuite(options(repo, trialsRoot, suite));

    assert.equal(report.refused, undefined);
    assert.equal(server.remaining, 0);
    assert.deepEqual(report.ran.map((o) => [`${o.condition}/${o.task}/${o.trial}`, o.status, o.duplicatedToolActions, o.escapedDefect]), [
      ['control/fix-add/1', 'accepted', 1, false],
      ['handoff/fix-add/1', 'accepted', 0, false],
      ['control/fix-add/2', 'accepted', 1, false],
      ['handoff/fix-add/2', 'accepted', 0, false],
    ]);
    // Tokens as the endpoint reported them: control 150+30 + 150+30 + 200+3, handoff 150+30 + 200+3.
    assert.deepEqual(report.ran.map((o) => o.tokens), [563, 383, 563, 383]);
    assert.deepEqual(report.ran.map((o) => o.fingerprint.components.handoff), ['off', 'on', 'off', 'on']);
    const [c, h] = [report.ran[0]!.fingerprint.components, report.ran[1]!.fingerprint.components];
    assert.deepEqual(Object.keys(c).filter((k) => c[k] !== h[k]), ['handoff'], 'the two conditions differ in one component only');
    assert.equal(c.model, 'fake-model');
    assert.equal(report.ran[0]!.instance, report.ran[1]!.instance);

    // The resumed session's prompt: the handoff (its claim checked in the worktree) only when it is on.
    const resumedPrompt = (i: number) => JSON.stringify((server.requests[first + i]!.body as { messages: unknown[] }).messages[1]);
    assert.doesNotMatch(resumedPrompt(2), /handoff/);
    assert.match(resumedPrompt(6), /✔ src\/add\.js changed/);

    const read = readOutcomes(report.outcomesFile);
    assert.deepEqual([...read.started.keys()], ['control/fix-add/1', 'handoff/fix-add/1', 'control/fix-add/2', 'handoff/fix-add/2']);
    assert.equal(read.outcomes.length, 4);
    assert.deepEqual(git(repo, 'worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree ')), [`worktree ${repo}`]);
    assert.equal(fs.readFileSync(path.join(repo, 'src/add.js'), 'utf8').includes('a - b'), true, 'the repository itself is untouched');

    // alfred compare on these outcomes: one component changed, duplicated tool actions 1 → 0 with an interval.
    const compare = async (...extra: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await main(['compare', 'control', 'handoff', '--workspace', repo, '--suite', '.alfred/trials.toml', ...extra], { out: (t) => void out.push(t), err: (t) => void err.push(t), readStdin: async () => '' });
      return { code, out: out.join('\n'), err: err.join('\n') };
    };
    const asJson = await compare('--json');
    assert.equal(asJson.code, 0, asJson.err);
    const comparison = JSON.parse(asJson.out) as Comparison;
    assert.equal(comparison.refused, false);
    assert.deepEqual([comparison.control.count, comparison.treatment.count], [2, 2]);
    const dup = comparison.metrics.find((m) => m.metric === 'duplicatedToolActions')!;
    assert.deepEqual([dup.control?.mean, dup.control?.n, dup.treatment?.mean, dup.treatment?.n], [1, 2, 0, 2]);
    assert.deepEqual([dup.difference?.estimate, dup.difference?.low, dup.difference?.high], [-1, -1, -1]);
    const acceptance = comparison.metrics.find((m) => m.metric === 'acceptance')!;
    assert.deepEqual([acceptance.control?.successes, acceptance.treatment?.successes], [2, 2]);
    const asText = await compare();
    assert.equal(asText.code, 0, asText.err);
    assert.match(asText.out, /Component changed: handoff/);
    assert.match(asText.out, /Duplicated tool actions per trial\n {2}control {4}1\.00 \(n = 2\), 95% interval 1\.00 to 1\.00\n {2}treatment {2}0\.00 \(n = 2\), 95% interval 0\.00 to 0\.00\n {2}difference -1\.00, 95% interval -1\.00 to -1\.00/);
  });

  it('records a policy stop, a budget exhaustion and a timeout with their statuses', async () => {
    const { repo, trialsRoot } = fixtureRepo();
    const suite = suiteOf(repo, 'statuses.toml');
    server.script([
      // policy: the reviewer may not edit; it says it is done, the checks fail.
      edit('p1'), { text: ['I cannot edit.'], usage: { inputTokens: 10, outputTokens: 4 } },
      // tokens: one request uses more than the task's 300 tokens.
      { toolCalls: [{ id: 't1', name: 'ctx_read', arguments: ['{"path":"src/add.js"}'] }], usage: { inputTokens: 400, outputTokens: 20 } },
      // time: the model never answers within the task's second.
      { text: ['late'], firstByteDelayMs: 4000 },
    ]);
    const report = await runSuite(options(repo, trialsRoot, suite));
    assert.deepEqual(report.ran.map((o) => [o.task, o.status]), [['policy', 'policy-stop'], ['tokens', 'budget-exhausted'], ['time', 'timeout']]);
    assert.equal(new Set(report.ran.map((o) => o.fingerprint.id)).size, 1, 'tasks with different budgets: one condition, one fingerprint');
    assert.deepEqual(report.ran.map((o) => o.budget.tokens), [50000, 300, 50000]);
    assert.match(report.ran[0]!.detail!, /The role refused ctx_edit \(tool-denied\)/);
    assert.equal(report.ran[1]!.tokens, 420);
    assert.ok(report.ran[2]!.wallMs >= 1000 && report.ran[2]!.wallMs < 3500, `timed out after ${report.ran[2]!.wallMs} ms`);
    assert.deepEqual(readOutcomes(report.outcomesFile).outcomes.map((o) => o.status), ['policy-stop', 'budget-exhausted', 'timeout']);
    server.script([]);
  });

  it('records an evaluator failure (a checks file that cannot be read) and a harness crash, and runs one condition alone with --condition', async () => {
    const { repo, trialsRoot, root } = fixtureRepo();
    fs.writeFileSync(path.join(repo, '.alfred/broken-checks.toml'), '[[check]\nname = "x"\n');
    const suite = suiteOf(repo, 'trials.toml');
    suite.tasks[0] = { ...suite.tasks[0]!, checks: '.alfred/broken-checks.toml' };
    server.script([done, done]);
    const report = await runSuite({ ...options(repo, trialsRoot, suite), condition: 'control' });
    assert.equal(report.planned, 2);
    assert.deepEqual(report.ran.map((o) => [`${o.condition}/${o.trial}`, o.status]), [['control/1', 'evaluator-failure'], ['control/2', 'evaluator-failure']]);
    assert.match(report.ran[0]!.detail!, /^The checks file has problems, so nothing was run: .*TOML syntax error/);

    // The trials' folder cannot hold a worktree: the harness fails, not the agent, and it is recorded.
    const blocked = path.join(root, 'blocked');
    fs.mkdirSync(blocked);
    fs.writeFileSync(path.join(blocked, 'worktrees'), 'a file where the worktrees folder goes');
    const crashed = await runSuite({ ...options(repo, blocked, suiteOf(repo, 'trials.toml')), condition: 'handoff' });
    assert.deepEqual(crashed.ran.map((o) => [`${o.condition}/${o.trial}`, o.status, o.tokens]), [['handoff/1', 'harness-crash', 0], ['handoff/2', 'harness-crash', 0]]);
    assert.match(crashed.ran[0]!.detail!, /EEXIST|ENOTDIR/);
    assert.equal(crashed.ran[0]!.fingerprint.components.handoff, 'on', 'the condition\'s fingerprint, though no worktree was made');
    server.script([]);
  });

  it('an accepted trial whose hidden check fails is recorded as an escaped defect', async () => {
    const { repo, trialsRoot } = fixtureRepo();
    // Passes the acceptance check (2 + 3 = 5) by returning 5 always; the hidden check (-1 + 1 = 0) catches it.
    const cheat: FakeStep = { toolCalls: [{ id: 'x1', name: 'ctx_edit', arguments: [JSON.stringify({ path: 'src/add.js', oldString: 'a - b', newString: '5' })] }] };
    server.script([cheat, done, edit('e1'), done]);
    const report = await runSuite({ ...options(repo, trialsRoot, suiteOf(repo, 'trials.toml')), condition: 'control' });
    assert.deepEqual(report.ran.map((o) => [o.trial, o.status, o.escapedDefect]), [[1, 'accepted', true], [2, 'accepted', false]]);
    assert.match(report.ran[0]!.detail!, /Escaped defect: hidden "adds negatives" failed \(exit code 1\)\.$/);
  });

  it('refuses to run a suite another live run holds, naming its pid, and takes over the lock of a dead one', async () => {
    const { repo, trialsRoot } = fixtureRepo();
    const suite = suiteOf(repo, 'trials.toml');
    const other = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      fs.mkdirSync(trialsRoot, { recursive: true });
      fs.writeFileSync(path.join(trialsRoot, 'run.pid'), String(other.pid));
      const report = await runSuite(options(repo, trialsRoot, suite));
      assert.deepEqual(report.refused, [`another alfred trial run (pid ${other.pid}) is running suite handoff`]);
      assert.equal(fs.existsSync(report.outcomesFile), false);
    } finally {
      other.kill('SIGKILL');
    }
    await new Promise((r) => other.once('exit', r));
    const taken = takeRunLock(trialsRoot);
    assert.ok('release' in taken, 'a dead run\'s lock is taken over');
    assert.equal(fs.readFileSync(path.join(trialsRoot, 'run.pid'), 'utf8'), String(process.pid));
    taken.release();
    assert.equal(fs.existsSync(path.join(trialsRoot, 'run.pid')), false);
  });

  it('refuses, before any trial, components it cannot apply and packs that do not exist, naming them', async () => {
    const { repo, trialsRoot } = fixtureRepo();
    const suite = suiteOf(repo, 'trials.toml');
    suite.conditions[1]!.components = { ...suite.conditions[1]!.components, 'label.temperature': '0.2' };
    const labelled = await runSuite(options(repo, trialsRoot, suite));
    assert.deepEqual(labelled.refused, ['condition handoff: label.temperature = "0.2"']);
    suite.conditions[1]!.components = { ...suite.conditions[0]!.components, pack: 'testing+no-such-pack' };
    const unknownPack = await runSuite(options(repo, trialsRoot, suite));
    assert.deepEqual(unknownPack.refused, ['condition handoff: pack "no-such-pack" does not exist']);
    assert.equal(fs.existsSync(labelled.outcomesFile), false);
  });

  it('a label in one condition hides no other refusal: each condition\'s role and pack are still named', async () => {
    const { repo, trialsRoot } = fixtureRepo();
    const suite = suiteOf(repo, 'trials.toml');
    suite.conditions[0]!.components = { ...suite.conditions[0]!.components, role: 'no-such-role' };
    suite.conditions[1]!.components = { ...suite.conditions[1]!.components, 'label.temperature': '0.2', pack: 'no-such-pack' };
    const report = await runSuite(options(repo, trialsRoot, suite));
    assert.deepEqual(report.refused, [
      'condition handoff: label.temperature = "0.2"',
      'condition control: role "no-such-role" does not exist',
      'condition handoff: pack "no-such-pack" does not exist',
    ]);
    assert.equal(fs.existsSync(report.outcomesFile), false);
  });

  it('applies a condition\'s pack and persona: the persona opens the conversation, the pack\'s context comes before the task, both in the fingerprint', async () => {
    const { repo, trialsRoot } = fixtureRepo();
    const suite = suiteOf(repo, 'trials.toml');
    suite.conditions[0]!.components = { ...suite.conditions[0]!.components, pack: 'testing', persona: 'on' };
    server.script([done, done]);
    const first = server.requests.length;
    const report = await runSuite({ ...options(repo, trialsRoot, suite), condition: 'control' });
    assert.deepEqual(report.ran.map((o) => [o.fingerprint.components.pack, o.fingerprint.components.persona, o.fingerprint.components.handoff]), [['testing', 'on', 'off'], ['testing', 'on', 'off']]);
    const messages = (server.requests[first]!.body as { messages: Array<{ role: string; content: string }> }).messages;
    assert.deepEqual(messages.map((m) => m.role), ['system', 'user', 'user']);
    assert.match(messages[1]!.content, /^You are Alfred, a discreet, exact and courteous assistant/);
    const testing = fs.readFileSync(path.join(BUILTIN_PACKS, 'testing', 'context.md'), 'utf8').trim();
    assert.equal(messages[2]!.content, `<domain-packs>\n\n# testing\n\n${testing}\n\n</domain-packs>\n\nMake src/add.js return the sum of its two arguments.`);
  });
});
