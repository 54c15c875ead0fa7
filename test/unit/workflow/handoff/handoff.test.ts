import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { latestHandoff, writeHandoff } from '../../../../src/core/workflow/handoff/handoff';
import { checkHandoff, renderHandoff, resumeHandoff } from '../../../../src/core/workflow/handoff/resume';
import { reconcileOperation, runOperation, sweepInterrupted } from '../../../../src/core/workflow/operations/lifecycle';
import { createOperation, updateOperation } from '../../../../src/core/workflow/operations/store';
import { shellOp } from '../../../../src/core/tools/ops/shell';
import { git, hasGit } from '../completion/gitRepo';
import { makeEnv } from '../../harness/helpers';

const needs = { skip: (!hasGit && 'git is not installed') || (process.platform === 'win32' && 'uses a POSIX shell') };

describe('progress handoff', needs, () => {
  it('records branch, HEAD, changed files, the last command and open operations; on resume marks stale claims', async () => {
    const env = makeEnv({ files: { 'a.js': 'a\n', 'b.js': 'b\n' } });
    const h = env.harness;
    git(env.ws, 'init', '-q', '-b', 'feature');
    git(env.ws, 'add', '-A');
    git(env.ws, 'commit', '-q', '-m', 'start');
    const head = git(env.ws, 'rev-parse', 'HEAD');
    env.write('a.js', 'changed\n');
    env.write('c.js', 'new\n');
    // An earlier window crashed while `deploy` ran (its process is gone); then `exit 1` ran here.
    const op = await createOperation(h.stateDir, { tool: 'ctx_shell', effect: 'exec', source: 'tool', args: { command: 'deploy' }, role: 'coder', session: null }, 999_999_999);
    await updateOperation(h.stateDir, op.id, 'running', {}, ['pending']);
    await runOperation(h, { tool: 'ctx_shell', effect: 'exec', source: 'tool', args: { command: 'exit 1' } }, () => shellOp(env.ws, { command: 'exit 1' }));
    await sweepInterrupted(h);

    await assert.rejects(writeHandoff(h, { nextStep: '  ', by: 'user' }), /needs a next step/);
    const written = await writeHandoff(h, { nextStep: 'fix the failing total test', by: 'user' });
    assert.equal(written.branch, 'feature');
    assert.equal(written.head, head);
    assert.deepEqual(written.changedFiles, ['a.js', 'c.js']);
    assert.equal(written.lastCommand?.command, 'exit 1');
    assert.equal(written.lastCommand?.exitCode, 1);
    assert.deepEqual(written.pendingOperations.map((p) => [p.id, p.state]), [[op.id, 'unknown']]);
    assert.equal(latestHandoff(h.stateDir).handoff?.id, written.id);

    const fresh = await checkHandoff(h);
    assert.equal(fresh!.stale, 0, 'nothing changed yet');

    // The workspace moves on: a commit, another branch, a file reverted, the operation reconciled.
    git(env.ws, 'checkout', '-q', '-b', 'other');
    env.write('a.js', 'a\n');
    git(env.ws, 'add', 'c.js');
    git(env.ws, 'commit', '-q', '-m', 'c');
    await reconcileOperation(h, op.id, 'failed', 'user');
    const checked = await checkHandoff(h);
    const status = Object.fromEntries(checked!.claims.map((c) => [c.text, c.status]));
    assert.equal(status['on branch feature'], 'stale');
    assert.equal(status[`HEAD at ${head.slice(0, 12)}`], 'stale');
    assert.equal(status['a.js changed'], 'stale');
    assert.equal(status['c.js changed'], 'stale');
    assert.equal(status['ctx_shell: deploy is unknown'], 'stale');
    assert.equal(status['fix the failing total test'], 'unverifiable');
    const text = renderHandoff(checked!);
    assert.match(text, /treat them as notes, not facts — 5 are stale/);
    assert.match(text, /✖ STALE on branch feature \(now: other\)/);
    assert.match(text, /Next step \(as written\): fix the failing total test/);
    assert.match((await resumeHandoff(h))!.text, /STALE/);
  });

  it('without a handoff there is nothing to resume', async () => {
    const env = makeEnv();
    assert.equal(await resumeHandoff(env.harness), undefined);
  });
});
