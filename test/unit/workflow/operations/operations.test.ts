import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { describe, it } from 'node:test';
import { Harness } from '../../../../src/core/harness/harness';
import {
  lastCommand, OPERATION_ENV, reconcileOperation, runOperation, stateFromResult, sweepInterrupted, unknownOperations,
} from '../../../../src/core/workflow/operations/lifecycle';
import { createOperation, operationsPath, readOperations, updateOperation } from '../../../../src/core/workflow/operations/store';
import { shellOp } from '../../../../src/core/tools/ops/shell';
import { BUILTIN_ROLES, makeEnv } from '../../harness/helpers';

const posixOnly = { skip: process.platform === 'win32' && 'uses a POSIX shell' };
const shell = { tool: 'ctx_shell', effect: 'exec', source: 'tool' };

/** The pid of a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid as number;
}

describe('operations', posixOnly, () => {
  it('an exec call is persisted pending with its arguments before it runs, then running, then its end state', async () => {
    const env = makeEnv();
    let seenDuringRun: string | undefined;
    const result = await runOperation(env.harness, { ...shell, args: { command: 'echo $ALFRED_OPERATION_ID' } }, async (op) => {
      const ops = readOperations(env.harness.stateDir).operations;
      seenDuringRun = ops.find((o) => o.id === op.id)?.state;
      return shellOp(env.ws, { command: 'echo $ALFRED_OPERATION_ID' }, { env: { ...process.env, ...op.env } });
    });
    assert.equal(seenDuringRun, 'running');
    const [op] = readOperations(env.harness.stateDir).operations;
    assert.equal(op!.state, 'succeeded');
    assert.equal(op!.exitCode, 0);
    assert.deepEqual(op!.args, { command: 'echo $ALFRED_OPERATION_ID' });
    assert.match(result.text, new RegExp(op!.id));
    const lines = fs.readFileSync(operationsPath(env.harness.stateDir), 'utf8').trim().split('\n').map((l) => JSON.parse(l).state);
    assert.deepEqual(lines, ['pending', 'running', 'succeeded']);
  });

  it('a non-zero exit is failed; a timeout is unknown, never failed', async () => {
    const env = makeEnv();
    await runOperation(env.harness, { ...shell, args: { command: 'exit 4' } }, () => shellOp(env.ws, { command: 'exit 4' }));
    await runOperation(env.harness, { ...shell, args: { command: 'sleep 30' } }, () => shellOp(env.ws, { command: 'sleep 30', timeoutSeconds: 1 }));
    const [failed, timedOut] = readOperations(env.harness.stateDir).operations;
    assert.equal(failed!.state, 'failed');
    assert.equal(failed!.exitCode, 4);
    assert.equal(timedOut!.state, 'unknown');
    assert.match(timedOut!.note!, /timed out/);
    assert.ok(env.harness.events({ types: ['OperationUnknown'] }).events.some((e) => e.operation === timedOut!.id));
    assert.equal(lastCommand(env.harness.stateDir)?.id, timedOut!.id);
  });

  it('after a crash, running operations become unknown on the next start and are never re-run; the user reconciles them', async () => {
    const env = makeEnv();
    const dir = env.harness.stateDir;
    const base = { ...shell, role: 'coder', session: null };
    // A window that crashed: its process is gone, one operation running, one never started.
    const crashed = deadPid();
    const running = await createOperation(dir, { ...base, args: { command: 'npm publish' } }, crashed);
    await updateOperation(dir, running.id, 'running', {}, ['pending']);
    const pending = await createOperation(dir, { ...base, args: { command: 'git push' } }, crashed);
    // Another window still alive keeps its running operation.
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    const live = await createOperation(dir, { ...base, args: { command: 'make' } }, sleeper.pid);
    await updateOperation(dir, live.id, 'running', {}, ['pending']);
    try {
      const restarted = new Harness({ workspaceFolder: env.ws, builtinRolesDir: BUILTIN_ROLES, env: { ALFRED_HOME: env.alfredHome }, homeDir: env.home });
      const swept = await sweepInterrupted(restarted);
      assert.deepEqual(swept.map((o) => o.id).sort(), [running.id, pending.id].sort());
      const states = new Map(readOperations(dir).operations.map((o) => [o.id, o.state]));
      assert.equal(states.get(running.id), 'unknown');
      assert.equal(states.get(pending.id), 'unknown');
      assert.equal(states.get(live.id), 'running');
      assert.deepEqual(unknownOperations(dir).map((o) => o.args.command), ['git push', 'npm publish']);
      assert.equal((await sweepInterrupted(restarted)).length, 0, 'a second start finds nothing new');

      await reconcileOperation(restarted, running.id, 'succeeded', 'user');
      await assert.rejects(reconcileOperation(restarted, running.id, 'failed', 'user'), /is succeeded; it cannot become failed/);
      await assert.rejects(reconcileOperation(restarted, live.id, 'failed', 'user'), /is running/);
      assert.deepEqual(unknownOperations(dir).map((o) => o.id), [pending.id]);
      const reconciled = readOperations(dir).operations.find((o) => o.id === running.id)!;
      assert.equal(reconciled.reconciledBy, 'user');
      assert.deepEqual(reconciled.args, { command: 'npm publish' }, 'the approved arguments are kept');
      assert.ok(restarted.events({ types: ['OperationReconciled'] }).events.some((e) => e.operation === running.id));
    } finally {
      sleeper.kill();
    }
  });

  it('a corrupt line of the log is skipped and reported', async () => {
    const env = makeEnv();
    await createOperation(env.harness.stateDir, { ...shell, args: { command: 'ls' }, role: 'coder', session: null });
    fs.appendFileSync(operationsPath(env.harness.stateDir), 'not json\n{"op":"nobody","state":"running","ts":"x"}\n');
    const read = readOperations(env.harness.stateDir);
    assert.equal(read.operations.length, 1);
    assert.deepEqual(read.corrupt.map((c) => c.line), [2, 3]);
  });

  it('reads an exec result: only a real exit code is a verdict', () => {
    assert.equal(stateFromResult({ exitCode: 0 }).state, 'succeeded');
    assert.equal(stateFromResult({ exitCode: 2 }).state, 'failed');
    assert.equal(stateFromResult({ exitCode: null, timedOut: true }).state, 'unknown');
    assert.equal(stateFromResult({ exitCode: null, cancelled: true }).state, 'unknown');
    assert.equal(stateFromResult({ exitCode: null, signal: 'SIGKILL' }).state, 'unknown');
    assert.equal(OPERATION_ENV, 'ALFRED_OPERATION_ID');
  });
});
