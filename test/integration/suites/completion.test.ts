import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { VerifyOutcome } from '../../../src/core/workflow/completion/verify';
import type { Handoff } from '../../../src/core/workflow/handoff/handoff';
import { sweepInterrupted } from '../../../src/core/workflow/operations/lifecycle';
import { createOperation, readOperations, updateOperation, type Operation } from '../../../src/core/workflow/operations/store';
import { completionsView } from '../../../src/vscode/webviews/completionViews';
import { freshSession, invoke, refusal, textOf, workspaceFile } from '../helpers';

const CART = 'src/cart.js';

suite('Completion verification, operations, handoff and traces', () => {
  test('Verify Completion refuses a failing test with its output, accepts after the fix; both records listed newest first', async () => {
    const h = await freshSession('coder');
    const original = fs.readFileSync(workspaceFile(CART), 'utf8');
    const before = completionsView(h).completions.length;
    try {
      // A bug an agent might leave behind: the discount is added instead of taken off.
      fs.writeFileSync(workspaceFile(CART), original.replace('100 - discountPercent', '100 + discountPercent'));
      const refused = await vscode.commands.executeCommand<VerifyOutcome>('alfred.verifyCompletion');
      assert.equal(refused.kind, 'recorded');
      assert.equal(refused.accepted, false);
      assert.match(refused.reason, /"npm test" failed \(exit code 1\)/);
      const check = refused.kind === 'recorded' ? refused.record.checks[0]! : assert.fail();
      assert.equal(check.status, 'failed');
      assert.match(check.outputTail, /a discount is taken off the total/);
      assert.match(check.outputTail, /11 !== 9/);
    } finally {
      fs.writeFileSync(workspaceFile(CART), original);
    }
    const accepted = await vscode.commands.executeCommand<VerifyOutcome>('alfred.verifyCompletion');
    assert.equal(accepted.accepted, true, accepted.reason);

    const { completions } = completionsView(h);
    assert.equal(completions.length, before + 2);
    assert.deepEqual(completions.slice(0, 2).map((c) => c.accepted), [true, false]);
    assert.equal(completions[1]!.checks[0]!.status, 'failed');
    assert.match(completions[1]!.checks[0]!.outputTail, /a discount is taken off the total/);
    assert.notEqual(completions[0]!.snapshot.id, completions[1]!.snapshot.id, 'the fix is another snapshot');
    const recorded = h.events({ types: ['CompletionRecorded'] }).events.slice(-2).map((e) => e.accepted);
    assert.deepEqual(recorded, [false, true]);
  });

  test('an agent may not edit the protected test, nor overwrite it from its shell', async () => {
    const h = await freshSession('coder');
    const test = fs.readFileSync(workspaceFile('test/cart.test.js'), 'utf8');
    const violations = h.events({ types: ['PolicyViolation'] }).events.length;
    assert.match(await refusal('ctx_edit', { path: 'test/cart.test.js', oldString: 'assert.equal', newString: 'assert.ok' }), /protected path "test\/\*\*"/);
    assert.match(await refusal('ctx_shell', { command: 'echo "" > test/cart.test.js' }), /protected path "test\/\*\*".*through >/);
    assert.match(await refusal('ctx_edit', { path: '.alfred/checks.toml', newString: '' }), /acceptance checks/);
    assert.equal(fs.readFileSync(workspaceFile('test/cart.test.js'), 'utf8'), test);
    assert.equal(h.events({ types: ['PolicyViolation'] }).events.length, violations + 3);
  });

  test('ctx_shell runs as an operation: persisted before it starts, ALFRED_OPERATION_ID in its environment', async () => {
    const h = await freshSession('coder');
    const text = textOf(await invoke('ctx_shell', { command: 'echo "op=$ALFRED_OPERATION_ID"' }));
    const op = readOperations(h.stateDir).operations.at(-1)!;
    assert.match(text, new RegExp(`op=${op.id}`));
    assert.equal(op.state, 'succeeded');
    assert.deepEqual(op.args, { command: 'echo "op=$ALFRED_OPERATION_ID"' });
  });

  test('an interrupted operation becomes unknown and is reconciled by the user, never re-run', async () => {
    const h = await freshSession('coder');
    const dead = spawnSync(process.execPath, ['-e', '']).pid as number;
    const op = await createOperation(h.stateDir, { tool: 'ctx_shell', effect: 'exec', source: 'tool', args: { command: 'npm publish' }, role: 'coder', session: null }, dead);
    await updateOperation(h.stateDir, op.id, 'running', {}, ['pending']);
    await sweepInterrupted(h);
    assert.ok(completionsView(h).operations.some((o) => o.id === op.id), 'listed for the dashboard');
    const done = await vscode.commands.executeCommand<Operation>('alfred.reconcileOperations', op.id, 'failed');
    assert.equal(done.state, 'failed');
    assert.ok(!completionsView(h).operations.some((o) => o.id === op.id));
  });

  test('Write Handoff records the next step; Export Trace writes the traces as JSONL', async () => {
    const h = await freshSession('coder');
    await invoke('ctx_read', { path: 'README.md' });
    const handoff = await vscode.commands.executeCommand<Handoff>('alfred.writeHandoff', { nextStep: 'run the checks again' });
    assert.equal(handoff.nextStep, 'run the checks again');
    assert.equal(handoff.role, 'coder');
    assert.equal(handoff.session, h.budget().session);
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-trace-')), 'trace.jsonl');
    const exported = await vscode.commands.executeCommand<{ count: number }>('alfred.exportTrace', vscode.Uri.file(out));
    const lines = fs.readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; tool?: string; harness: string });
    assert.equal(lines.length, exported.count);
    const read = lines.filter((l) => l.tool === 'ctx_read');
    assert.deepEqual(read.slice(-2).map((l) => l.kind), ['decision', 'result']);
    assert.match(read.at(-1)!.harness, /^\d+\.\d+\.\d+/);
  });
});
