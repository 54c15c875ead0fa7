import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { readCompletions } from '../../../../src/core/workflow/completion/record';
import { formatOutcome } from '../../../../src/core/workflow/completion/report';
import { verifyCompletion } from '../../../../src/core/workflow/completion/verify';
import { Harness } from '../../../../src/core/harness/harness';
import { BUILTIN_ROLES, makeEnv } from '../../harness/helpers';
import { git, hasGit, repo, tempFolder } from './gitRepo';
import { alive } from '../../../support/processes';

const posixOnly = { skip: process.platform === 'win32' && 'uses a POSIX shell' };

/** A checks.toml from [name, run, extra TOML lines] triples. */
function checks(...list: Array<[string, string, string?]>): string {
  return list.map(([name, run, extra]) => `[[check]]\nname = ${JSON.stringify(name)}\nrun = ${JSON.stringify(run)}\n${extra ?? ''}\n`).join('\n');
}

const node = (code: string): string => `node -e ${JSON.stringify(code)}`;

describe('verifyCompletion', posixOnly, () => {
  it('accepts when every required check passes, records it and logs CheckRun and CompletionRecorded', async () => {
    const env = makeEnv({ files: {
      '.alfred/checks.toml': checks(['ok', node('console.log("fine")')], ['optional', 'exit 3', 'required = false']),
    } });
    const outcome = await verifyCompletion(env.harness, { trigger: 'test', vscodeVersion: '1.139.1' });
    assert.equal(outcome.kind, 'recorded');
    assert.equal(outcome.accepted, true, outcome.reason);
    const { records } = readCompletions(env.harness.stateDir);
    assert.equal(records.length, 1);
    const r = records[0]!;
    assert.equal(r.evaluator, 'exit-codes');
    assert.equal(r.role, 'coder');
    assert.equal(r.trigger, 'test');
    assert.equal(r.snapshot.stable, true);
    assert.equal(r.environment.vscode, '1.139.1');
    assert.equal(r.environment.node, process.version);
    assert.deepEqual(r.checks.map((c) => [c.name, c.status, c.exitCode, c.required]), [['ok', 'passed', 0, true], ['optional', 'failed', 3, false]]);
    assert.equal(r.checks[0]!.outputTail, 'fine');
    const types = env.harness.events().events.map((e) => e.type).filter((t) => t === 'CheckRun' || t === 'CompletionRecorded');
    assert.deepEqual(types, ['CheckRun', 'CheckRun', 'CompletionRecorded']);
  });

  it('refuses when a required check fails, with its output', async () => {
    const env = makeEnv({ files: { '.alfred/checks.toml': checks(['unit', node('console.error("expected 8, got 9"); process.exit(1)')]) } });
    const outcome = await verifyCompletion(env.harness, { trigger: 'test' });
    assert.equal(outcome.accepted, false);
    assert.match(outcome.reason, /"unit" failed \(exit code 1\)/);
    assert.match(formatOutcome(outcome), /expected 8, got 9/);
  });

  it('a change to the workspace while the checks run is not accepted, and the record says so', async () => {
    const env = makeEnv({ files: { 'src/a.js': 'x', '.alfred/checks.toml': checks(['sneaky', node('require("fs").appendFileSync("src/a.js", "y")')]) } });
    const outcome = await verifyCompletion(env.harness, { trigger: 'test' });
    assert.equal(outcome.kind, 'recorded');
    assert.equal(outcome.accepted, false);
    assert.equal(outcome.record.checks[0]!.status, 'passed');
    assert.equal(outcome.record.snapshot.stable, false);
    assert.notEqual(outcome.record.snapshot.before.id, outcome.record.snapshot.after.id);
    assert.match(outcome.reason, /workspace changed while the checks ran/);
  });

  it('a check past its timeout is "timed out", not failed, and its process group is stopped', async () => {
    const env = makeEnv();
    const pidFile = path.join(env.root, 'grandchild.pid');
    // The shell starts a grandchild that would outlive a kill of the shell alone.
    const run = `${node(`require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setTimeout(() => {}, 60000)`)} & wait`;
    env.write('.alfred/checks.toml', checks(['slow', run, 'timeout_s = 1'], ['after', 'true']));
    const outcome = await verifyCompletion(env.harness, { trigger: 'test' });
    assert.equal(outcome.kind, 'recorded');
    const [slow, next] = outcome.record.checks;
    assert.equal(slow!.status, 'timed out');
    assert.equal(slow!.exitCode, null);
    assert.equal(next!.status, 'passed', 'the next check still runs');
    assert.match(outcome.reason, /"slow" timed out after 1 s/);
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    await waitUntilDead(pid);
  });

  it('passes ALFRED_OPERATION_ID and the check\'s env to the command, in its cwd', async () => {
    const env = makeEnv({ files: {
      'web/.keep': '',
      '.alfred/checks.toml': checks(['env', node('console.log(process.env.ALFRED_OPERATION_ID + " " + process.env.MODE + " " + process.cwd())'), 'cwd = "web"\nenv = { MODE = "ci" }']),
    } });
    const outcome = await verifyCompletion(env.harness, { trigger: 'test' });
    assert.equal(outcome.kind, 'recorded');
    const c = outcome.record.checks[0]!;
    assert.equal(c.outputTail, `${c.operationId} ci ${fs.realpathSync(path.join(env.ws, 'web'))}`);
    assert.match(c.operationId, new RegExp(`^completion-${outcome.record.id}\\.1$`));
  });

  it('a check runs as from a terminal: a parent node --test marker is not passed on', async () => {
    const env = makeEnv({ files: { '.alfred/checks.toml': checks(['top', node('console.log(process.env.NODE_TEST_CONTEXT ?? "top-level")')]) } });
    const outcome = await verifyCompletion(env.harness, { trigger: 'test', env: { ...process.env, NODE_TEST_CONTEXT: 'child-v8' } });
    assert.equal(outcome.kind === 'recorded' && outcome.record.checks[0]!.outputTail, 'top-level');
  });

  it('a cancel stops the running check and skips the rest; not accepted', async () => {
    const env = makeEnv({ files: { '.alfred/checks.toml': checks(['long', node('setTimeout(() => {}, 60000)')], ['never', 'true']) } });
    const abort = new AbortController();
    const outcome = await verifyCompletion(env.harness, {
      trigger: 'test', signal: abort.signal,
      onProgress: (p) => { if (p.step === 'check' && p.name === 'long') setTimeout(() => abort.abort(), 200); },
    });
    assert.equal(outcome.kind, 'recorded');
    assert.deepEqual(outcome.record.checks.map((c) => c.status), ['cancelled', 'skipped']);
    assert.equal(outcome.accepted, false);
  });

  it('without checks, or with a broken checks file, nothing runs and nothing is recorded', async () => {
    const none = makeEnv();
    const a = await verifyCompletion(none.harness, { trigger: 'test' });
    assert.equal(a.kind, 'no-checks');
    const broken = makeEnv({ files: { '.alfred/checks.toml': '[[check]]\nname = "x"\n' } });
    const b = await verifyCompletion(broken.harness, { trigger: 'test' });
    assert.equal(b.kind, 'invalid');
    assert.match(b.reason, /checks\.toml \(check\[0\]\.run\): is required/);
    assert.equal(readCompletions(broken.harness.stateDir).records.length, 0);
  });

  it('records are listed newest first; a corrupt line is skipped and reported', async () => {
    const env = makeEnv({ files: { '.alfred/checks.toml': checks(['ok', 'true']) } });
    const first = await verifyCompletion(env.harness, { trigger: 'first' });
    fs.appendFileSync(path.join(env.harness.stateDir, 'completions.jsonl'), '{"torn":\n');
    const second = await verifyCompletion(env.harness, { trigger: 'second' });
    const { records, corrupt } = readCompletions(env.harness.stateDir);
    assert.deepEqual(records.map((r) => r.trigger), ['second', 'first']);
    assert.equal(corrupt.length, 1);
    assert.ok(first.kind === 'recorded' && second.kind === 'recorded');
  });

  // The home opened as the workspace holds Alfred's own home, which Alfred writes while the checks run
  // (each check's CheckRun event), and the download caches, where npm writes a log on every run: they
  // are not the work, and must not read as a change to it.
  for (const withGit of [false, true]) {
    it(`with Alfred's home inside the workspace (the home opened as one)${withGit ? ', a git repository' : ''}, what Alfred and the checks' tools write in their own folders is no change`, { skip: withGit && !hasGit && 'no git' }, async () => {
      const npmLike = node('const fs = require("fs"); fs.mkdirSync(".npm/_logs", { recursive: true }); fs.writeFileSync(".npm/_logs/" + Date.now() + "-debug-0.log", "ok"); fs.mkdirSync(".cache/pip", { recursive: true }); fs.writeFileSync(".cache/pip/x", "y")');
      const files = { 'src/a.js': 'x', '.alfred/checks.toml': checks(['ok', npmLike], ['also', 'true']) };
      const ws = withGit ? repo(files) : tempFolder(files);
      if (withGit) git(ws, 'rm', '-q', '--cached', '-r', '.alfred'); // as a dotfiles repository that does not track it
      const harness = new Harness({ workspaceFolder: ws, builtinRolesDir: BUILTIN_ROLES, env: { ALFRED_HOME: path.join(ws, '.alfred') }, homeDir: ws });
      const outcome = await verifyCompletion(harness, { trigger: 'test' });
      assert.equal(outcome.kind, 'recorded');
      assert.ok(harness.stateDir.startsWith(path.join(ws, '.alfred', 'state')), harness.stateDir);
      assert.equal(outcome.record.snapshot.stable, true, outcome.reason);
      assert.equal(outcome.accepted, true, outcome.reason);
      // The work itself still counts: a check that changes it is caught.
      fs.writeFileSync(path.join(ws, '.alfred', 'checks.toml'), checks(['sneaky', node(`require("fs").appendFileSync(${JSON.stringify(path.join(ws, 'src', 'a.js'))}, "y")`)]));
      const changed = await verifyCompletion(harness, { trigger: 'test' });
      assert.equal(changed.kind, 'recorded');
      assert.equal(changed.accepted, false);
      assert.match(changed.reason, /workspace changed while the checks ran/);
    });
  }
});

async function waitUntilDead(pid: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (!alive(pid)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`process ${pid} outlived the timeout`);
}
