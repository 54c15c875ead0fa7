/** The runaway guard: the same call, or the same few calls alternating, past the role's limit. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callFingerprint, repetitionAtEnd } from '../../../../src/core/rules/policy/repetition';
import { makeEnv, roleFile } from '../../harness/helpers';

describe('callFingerprint', () => {
  it('whitespace inside strings and the order of keys do not make a different call; the tool and the values do', () => {
    const a = callFingerprint('run_in_terminal', { command: 'npm  test', cwd: 'x' });
    assert.equal(callFingerprint('run_in_terminal', { cwd: 'x', command: ' npm test ' }), a);
    assert.notEqual(callFingerprint('run_in_terminal', { command: 'npm test -- --watch', cwd: 'x' }), a);
    assert.notEqual(callFingerprint('Bash', { command: 'npm test', cwd: 'x' }), a);
  });
});

describe('repetitionAtEnd', () => {
  it('counts the same call, and cycles of two or three calls, in a row at the end', () => {
    assert.deepEqual(repetitionAtEnd(['a']), { count: 1, cycle: 1 });
    assert.deepEqual(repetitionAtEnd(['x', 'a', 'a', 'a']), { count: 3, cycle: 1 });
    assert.deepEqual(repetitionAtEnd(['a', 'b', 'a', 'b', 'a', 'b']), { count: 3, cycle: 2 });
    assert.deepEqual(repetitionAtEnd(['c', 'a', 'b', 'c', 'a', 'b', 'c']), { count: 2, cycle: 3 });
    assert.deepEqual(repetitionAtEnd(['a', 'b', 'c', 'd']), { count: 1, cycle: 1 });
  });
});

describe('the guard through the hooks', () => {
  const loopy = roleFile('loopy', '', 'max_context_tokens = 1000000\nmax_shell_invocations = 100\nmax_cost_usd = 5.0\nmax_repeated_calls = 3');

  it('the 4th identical call in a row is refused with a reason the model can act on; a different call goes through again', async () => {
    const env = makeEnv({ env: { ALFRED_ROLE: 'loopy', ALFRED_SANDBOX: 'off' }, files: { '.alfred/roles/loopy.toml': loopy } });
    const read = (p: string) => env.hook('PreToolUse', { tool_name: 'read_file', tool_input: { filePath: p } });
    for (let i = 0; i < 3; i++) assert.doesNotMatch((await read('a.ts')).stdout, /deny/);
    const fourth = await read('a.ts');
    assert.match(String((fourth.json.hookSpecificOutput as Record<string, unknown>).permissionDecisionReason), /^Alfred \(role loopy\): Alfred stops a loop: this is the same read_file call 4 times in a row \(role loopy allows 3\)\. Repeating it will not give a different result/);
    assert.doesNotMatch((await read('b.ts')).stdout, /deny/);
    const violations = env.harness.events({ types: ['PolicyViolation'] }).events;
    assert.deepEqual(violations.map((e) => e.code), ['runaway']);
  });

  it('two calls alternating past the limit are refused as a cycle', async () => {
    const env = makeEnv({ env: { ALFRED_ROLE: 'loopy', ALFRED_SANDBOX: 'off' }, files: { '.alfred/roles/loopy.toml': loopy } });
    const call = (p: string) => env.hook('PreToolUse', { tool_name: 'read_file', tool_input: { filePath: p } });
    const answers: string[] = [];
    for (let i = 0; i < 4; i++) answers.push((await call('a.ts')).stdout, (await call('b.ts')).stdout);
    answers.push((await call('a.ts')).stdout);
    assert.deepEqual(answers.map((a) => /deny/.test(a)), [false, false, false, false, false, false, false, true, true], 'the call that completes the 4th cycle, and the loop after it');
    assert.match(answers[7]!, /the same cycle of 2 calls 4 times in a row/);
  });
});
