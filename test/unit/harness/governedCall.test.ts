/** One governed call for every path: refused, ran (charged, warned) or failed, each call on its own. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { governedCall, GovernedRefusal, type GovernedOutcome } from '../../../src/core/harness/governedCall';
import { toolCall } from '../../../src/core/rules/policy/toolCall';
import type { AlfredEvent } from '../../../src/core/base/events/types';
import { makeEnv, roleFile } from './helpers';

/** What VS Code hands `lm.invokeTool`'s caller when a tool throws: a new Error with the name and message only. */
function acrossInvokeTool(err: Error): Error {
  const passed = new Error(err.message);
  passed.name = err.name;
  return passed;
}

describe('governedCall', () => {
  it('two overlapping calls of one tool, one refused and one failing: each is classified by itself, not by the bus', async () => {
    const env = makeEnv({ protectedGlobs: () => ['tests/**'] });
    const seen: AlfredEvent[] = [];
    env.harness.bus.on((e) => seen.push(e));
    let refusedDecided!: () => void;
    const refusedFirst = new Promise<void>((resolve) => { refusedDecided = resolve; });

    // B is allowed and running when A, the same tool, is refused; then B's tool throws.
    const failing = governedCall(env.harness, toolCall('ctx_edit', { path: 'src/b.ts', oldText: 'a', newText: 'b' }), { source: 'chat' }, async () => {
      await refusedFirst;
      throw new Error('ctx_edit: the text to replace was not found in src/b.ts');
    });
    const refused = await governedCall(env.harness, toolCall('ctx_edit', { path: 'tests/a.test.ts', oldText: 'a', newText: 'b' }), { source: 'chat' }, async () => {
      throw new Error('a refused call never runs');
    });
    assert.ok(seen.some((e) => e.type === 'PolicyViolation' && e.tool === 'ctx_edit'), 'the refusal was on the bus while the other call ran');
    refusedDecided();
    const failed = await failing;

    assert.equal(refused.kind, 'refused');
    const refusal = (refused as Extract<GovernedOutcome<never>, { kind: 'refused' }>).refusal;
    assert.deepEqual(refusal.details, {
      tool: 'ctx_edit', role: 'coder', code: 'protected-path',
      reason: 'ctx_edit may not write tests/a.test.ts: it matches the protected path "tests/**". Change other files, or ask the user to change this one.',
    });
    assert.equal(refusal.message, refusal.details.reason);
    assert.equal(failed.kind, 'failed');
    assert.equal((failed as Extract<GovernedOutcome<never>, { kind: 'failed' }>).error.message, 'ctx_edit: the text to replace was not found in src/b.ts');

    // As Alfred's LM tools throw them and @alfred's loop receives them from VS Code.
    assert.equal(GovernedRefusal.isRefusal(acrossInvokeTool(refusal)), true);
    assert.equal(GovernedRefusal.isRefusal(acrossInvokeTool((failed as Extract<GovernedOutcome<never>, { kind: 'failed' }>).error)), false);
    assert.equal(env.harness.budget().status.dimensions.tokens.used, 0, 'neither call charged an output');
  });

  it('a call that ran is charged its output and, past OK, carries the budget line as its warning', async () => {
    const env = makeEnv({ env: { ALFRED_ROLE: 'tiny' }, files: { '.alfred/roles/tiny.toml': roleFile('tiny', '', 'max_context_tokens = 4\nmax_shell_invocations = 5\nmax_cost_usd = 5.0') } });
    const ran = await governedCall(env.harness, toolCall('read_file', { filePath: 'a.ts' }), { source: 'chat' }, async () => ({ output: 'hello world', value: 7 }));
    assert.equal(ran.kind, 'ran');
    const r = ran as Extract<GovernedOutcome<number>, { kind: 'ran' }>;
    assert.deepEqual([r.output, r.value, r.charged.charged.tokens], ['hello world', 7, 2]);
    assert.equal(r.charged.status.signal, 'OK');
    // The charge says what it charged and in which session; the log agrees.
    const logged = env.harness.events({ types: ['ToolCall'] }).events.filter((e) => e.phase === 'result');
    assert.deepEqual(r.charged.charged, { tokens: 2, costUsd: 0.000006, estimated: true }, 'no model: the fallback price, estimated');
    assert.deepEqual(logged.map((e) => [e.session, e.charge]), [[r.charged.session, r.charged.charged]]);
    assert.deepEqual(env.harness.actor(), { role: 'tiny', session: r.charged.session });
    assert.equal(r.warning, undefined);
    const again = await governedCall(env.harness, toolCall('read_file', { filePath: 'b.ts' }), { source: 'chat' }, async () => ({ output: 'hello world', value: 8 }));
    const line = env.harness.budget().line;
    assert.match(line, /^Budget\[tiny\]: tokens 4\/4 \(100%\)/);
    assert.equal((again as Extract<GovernedOutcome<number>, { kind: 'ran' }>).warning, `\n\n⚠ ${line}`);
    const third = await governedCall(env.harness, toolCall('read_file', { filePath: 'c.ts' }), { source: 'chat' }, async () => ({ output: 'x', value: 9 }));
    assert.equal(third.kind, 'refused');
    assert.equal((third as Extract<GovernedOutcome<number>, { kind: 'refused' }>).refusal.details.code, 'budget-exhausted');
  });
});
