import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import * as vscode from 'vscode';
import { readCompletions } from '../../../src/core/workflow/completion/record';
import { handoffsPath, latestHandoff } from '../../../src/core/workflow/handoff/handoff';
import { ask, RecordingStream, resetModel } from '../chat';
import { freshSession, until, workspaceFile } from '../helpers';

const CART = 'src/cart.js';
const CHECKS = '.alfred/checks.toml';

interface DoneMeta { command: string; accepted: boolean; kind: string; record?: string }

function lineCount(file: string): number {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').length : 0;
}

suite('@alfred /done and /handoff', () => {
  setup(async () => {
    await resetModel();
  });

  test('/done with passing checks: the harness runs them, an accepted record is appended, the check and its exit code shown', async () => {
    const h = await freshSession('coder');
    const before = readCompletions(h.stateDir).records.length;
    const { out, result } = await ask('', { command: 'done' });
    const meta = result.metadata as DoneMeta;
    const { records } = readCompletions(h.stateDir);
    assert.equal(records.length, before + 1);
    const record = records[0]!;
    assert.deepEqual([meta.command, meta.kind, meta.accepted, meta.record], ['done', 'recorded', true, record.id]);
    assert.deepEqual([record.accepted, record.trigger], [true, 'chat']);
    assert.deepEqual(record.checks.map((c) => [c.name, c.status, c.exitCode]), [['npm test', 'passed', 0]]);
    assert.deepEqual(out.progress.filter((p) => p.startsWith('running')), ['running npm test (1/1)']);
    assert.match(out.text, /### ✅ Accepted/);
    assert.match(out.text, /- ✅ \*\*npm test\*\*: `node --test test\/` · exit code 0 · \d+\.\d s/);
    assert.match(out.text, new RegExp(`Record \`${record.id}\`, appended to`));
    assert.doesNotMatch(out.text, /is ignored/);
  });

  test('/done with a failing required check: not accepted, exit code 1 and the failing output shown; text after /done certifies nothing', async () => {
    const h = await freshSession('coder');
    const original = fs.readFileSync(workspaceFile(CART), 'utf8');
    const before = readCompletions(h.stateDir).records.length;
    let asked;
    try {
      fs.writeFileSync(workspaceFile(CART), original.replace('100 - discountPercent', '100 + discountPercent'));
      asked = await ask('please accept, all tests pass', { command: 'done' });
    } finally {
      fs.writeFileSync(workspaceFile(CART), original);
    }
    const { out, result } = asked;
    const { records } = readCompletions(h.stateDir);
    assert.equal(records.length, before + 1);
    const record = records[0]!;
    assert.deepEqual([(result.metadata as DoneMeta).accepted, record.accepted], [false, false]);
    assert.deepEqual(record.checks.map((c) => [c.name, c.status, c.exitCode]), [['npm test', 'failed', 1]]);
    assert.match(out.text, /^The text after \/done is ignored: only the exit codes of the acceptance checks decide whether the work is done\./);
    assert.match(out.text, /### ❌ Not accepted/);
    assert.match(out.text, /required check "npm test" failed \(exit code 1\)/);
    assert.match(out.text, /- ❌ \*\*npm test\*\*: `node --test test\/` · exit code 1 · /);
    assert.match(out.text, /Output of `npm test` \(last lines\):\n\n```text\n[\s\S]*11 !== 9[\s\S]*\n```/);
  });

  test('/done stops the running check when the chat is cancelled, and records it cancelled', async () => {
    const h = await freshSession('coder');
    const checks = fs.readFileSync(workspaceFile(CHECKS), 'utf8');
    const before = readCompletions(h.stateDir).records.length;
    const source = new vscode.CancellationTokenSource();
    const out = new RecordingStream();
    const started = Date.now();
    try {
      fs.writeFileSync(workspaceFile(CHECKS), '[[check]]\nname = "slow"\nrun = "sleep 30"\ntimeout_s = 60\n');
      const asked = ask('', { command: 'done', token: source.token, out });
      await until('the slow check to start', () => out.progress.includes('running slow (1/1)'));
      source.cancel();
      await asked;
    } finally {
      fs.writeFileSync(workspaceFile(CHECKS), checks);
    }
    assert.ok(Date.now() - started < 20_000, 'the check was stopped, not waited for');
    const { records } = readCompletions(h.stateDir);
    assert.equal(records.length, before + 1);
    assert.deepEqual([records[0]!.accepted, records[0]!.checks.map((c) => c.status)], [false, ['cancelled']]);
    assert.match(out.text, /"slow" was cancelled/);
  });

  test('/done without a checks file says so and appends no record', async () => {
    const h = await freshSession('coder');
    const checks = fs.readFileSync(workspaceFile(CHECKS), 'utf8');
    const before = readCompletions(h.stateDir).records.length;
    let asked;
    try {
      fs.rmSync(workspaceFile(CHECKS));
      asked = await ask('', { command: 'done' });
    } finally {
      fs.writeFileSync(workspaceFile(CHECKS), checks);
    }
    assert.equal((asked.result.metadata as DoneMeta).kind, 'no-checks');
    assert.match(asked.out.text, /No acceptance checks: create .*checks\.toml with \[\[check\]\] tables/);
    assert.equal(readCompletions(h.stateDir).records.length, before);
  });

  test('/handoff <next step> writes the handoff with its branch; /handoff alone shows it checked against the workspace', async () => {
    const h = await freshSession('coder');
    const gitDir = workspaceFile('.git');
    assert.ok(!fs.existsSync(gitDir), 'the test workspace is not a repository to begin with');
    const file = handoffsPath(h.stateDir);
    const before = lineCount(file);
    try {
      assert.equal(spawnSync('git', ['init', '-q', '-b', 'handoff-branch'], { cwd: path.dirname(gitDir) }).status, 0);
      const written = await ask('make the discount test pass', { command: 'handoff' });
      assert.equal(lineCount(file), before + 1);
      const { handoff } = latestHandoff(h.stateDir);
      assert.deepEqual([handoff!.branch, handoff!.nextStep, handoff!.by], ['handoff-branch', 'make the discount test pass', 'chat']);
      assert.match(written.out.text, /^Handoff written on handoff-branch: \d+ changed file\(s\), \d+ open operation\(s\)\./);
      assert.match(written.out.text, /- Branch: `handoff-branch`/);
      assert.match(written.out.text, /- Next step: make the discount test pass/);

      const shown = await ask('', { command: 'handoff' });
      assert.equal(lineCount(file), before + 1, '/handoff alone writes nothing');
      assert.match(shown.out.text, /- ✔ on branch handoff-branch/);
      assert.match(shown.out.text, /Next step \(as written\): make the discount test pass/);
    } finally {
      fs.rmSync(gitDir, { recursive: true, force: true });
    }
  });
});
