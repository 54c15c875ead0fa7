/**
 * Decide-and-charge (govern.ts) on a backend: charges, refusals, crossings announced once, role
 * switches and resets, the fold equal to the live ledger. Run on the files (govern.test.ts) and on
 * PostgreSQL (pgBackend.test.ts) with the same assertions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readEvents } from '../../../../src/core/base/events/read';
import type { GateDecision } from '../../../../src/core/rules/vocabulary/types';
import { authorize, charge, currentStatus } from '../../../../src/core/ledger/govern';
import { foldLedger } from '../../../../src/core/ledger/ledgerFold';
import { accountingOf, readLedger } from '../../../../src/core/ledger/ledgerFormat';
import { resetSession } from '../../../../src/core/ledger/ledgerStore';
import { makeRole, shellGate } from '../../../fixtures/budget-role';

const shellCall = (dir: string, role = makeRole('coder', { maxShellInvocations: 10 })) =>
  authorize(dir, { role, tool: 'run_in_terminal', toolInput: { command: 'ls' }, source: 'test', decide: shellGate });

export function governSuite(freshState: () => string): void {
  test('an allowed shell call is charged and logged as a ToolCall', async () => {
    const dir = freshState();
    const r = await shellCall(dir);
    assert.equal(r.decision.allowed, true);
    assert.equal(r.status.dimensions.shell.used, 1);
    assert.equal(r.line, 'Budget[coder]: tokens 0/200000 (0%) | shell 1/10 (10%) | cost $0.00/$5.00 (0%) → OK');
    assert.deepEqual(r.events.map((e) => [e.type, e.tool, e.category, e.decision, e.source, e.phase]), [['ToolCall', 'run_in_terminal', 'shell', 'allow', 'test', 'decision']]);
    assert.deepEqual(r.events[0]!.charge, { shell: 1 });
    assert.equal('toolInput' in r.events[0]!, false, 'tool input is never logged');
    assert.deepEqual(readEvents(dir).events, r.events);
  });

  test('decide sees the budget before the call; a refusal charges nothing and adds a PolicyViolation', async () => {
    const dir = freshState();
    const role = makeRole('coder');
    let seen = -1;
    const deny = (b: Parameters<typeof shellGate>[0]): GateDecision => {
      seen = b.dimensions.shell.used;
      return { allowed: false, category: 'edit', shellCharge: 1, code: 'tool-denied', reason: 'no edits here' };
    };
    await shellCall(dir, role);
    const r = await authorize(dir, { role, tool: 'editFiles', source: 'hook:PreToolUse', decide: deny });
    assert.equal(seen, 1);
    assert.equal(r.decision.allowed, false);
    assert.equal(r.status.dimensions.shell.used, 1);
    assert.deepEqual(r.events.map((e) => [e.type, e.decision, e.code, e.reason]), [
      ['ToolCall', 'deny', 'tool-denied', 'no edits here'],
      ['PolicyViolation', undefined, 'tool-denied', 'no edits here'],
    ]);
    assert.deepEqual(r.events[0]!.charge, { shell: 0 });
  });

  test('BudgetWarning and BudgetExhausted are emitted once per dimension, not on every call', async () => {
    const dir = freshState();
    const results: Awaited<ReturnType<typeof shellCall>>[] = [];
    for (let i = 1; i <= 13; i++) results.push(await shellCall(dir));
    const budgetEvents = (i: number) => results[i - 1]!.events.filter((e) => e.type.startsWith('Budget')).map((e) => e.type);
    assert.deepEqual(budgetEvents(7), []);
    assert.deepEqual(budgetEvents(8), ['BudgetWarning']);
    assert.deepEqual(budgetEvents(9), []);
    assert.deepEqual(budgetEvents(10), ['BudgetExhausted']);
    assert.deepEqual([11, 12, 13].map(budgetEvents), [[], [], []]);
    assert.deepEqual(results.map((r) => r.decision.allowed), [...Array(10).fill(true), false, false, false]);
    assert.deepEqual(results[9]!.crossed, [{ dimension: 'shell', from: 'WARNING', to: 'EXHAUSTED' }]);
    const exhausted = results[9]!.events.find((e) => e.type === 'BudgetExhausted')!;
    assert.deepEqual(
      { dimension: exhausted.dimension, used: exhausted.used, limit: exhausted.limit, percent: exhausted.percent, line: exhausted.line },
      { dimension: 'shell', used: 10, limit: 10, percent: 100, line: 'Budget[coder]: tokens 0/200000 (0%) | shell 10/10 (100%) | cost $0.00/$5.00 (0%) → EXHAUSTED' },
    );
    const log = readEvents(dir, { types: ['BudgetWarning', 'BudgetExhausted'] }).events;
    assert.deepEqual(log.map((e) => [e.type, e.dimension]), [['BudgetWarning', 'shell'], ['BudgetExhausted', 'shell']]);
    assert.equal(readEvents(dir, { types: ['PolicyViolation'] }).events.length, 3);
  });

  test('charge adds tokens and cost; an estimated cost shows as ~; a jump to EXHAUSTED is one event', async () => {
    const dir = freshState();
    const role = makeRole('coder');
    const a = await charge(dir, { role, tool: 'ctx_read', category: 'read', tokens: 50_000, costUsd: 0.5, estimated: false, source: 'tool' });
    assert.equal(a.line, 'Budget[coder]: tokens 50000/200000 (25%) | shell 0/100 (0%) | cost $0.50/$5.00 (10%) → OK');
    assert.deepEqual(a.events.map((e) => [e.type, e.phase, e.category]), [['ToolCall', 'result', 'read']]);
    const b = await charge(dir, { role, tool: 'ctx_read', tokens: 110_000, costUsd: 0.01, estimated: true, source: 'tool' });
    assert.equal(b.status.costEstimated, true);
    assert.match(b.line, /cost ~\$0\.51\/\$5\.00 \(10%\)/);
    assert.deepEqual(b.crossed, [{ dimension: 'tokens', from: 'OK', to: 'WARNING' }]);
    const c = await charge(dir, { role, tool: 'x', tokens: 0, costUsd: 10, estimated: false, source: 'tool' });
    assert.deepEqual(c.events.map((e) => [e.type, e.dimension]), [['ToolCall', undefined], ['BudgetExhausted', 'cost']]);
    assert.equal(c.status.signal, 'EXHAUSTED');
    const d = await charge(dir, { role, tool: 'x', tokens: -5, costUsd: Number.NaN, estimated: false, source: 'tool' });
    assert.equal(d.status.dimensions.tokens.used, 160_000, 'bad amounts charge nothing');
  });

  test('a role switch restarts the budget; reset zeroes it; fold equals the live ledger', async () => {
    const dir = freshState();
    for (let i = 0; i < 9; i++) await shellCall(dir);
    await charge(dir, { role: makeRole('coder'), tool: 'r', tokens: 1234, costUsd: 0.123, estimated: true, source: 't' });
    const rev = makeRole('reviewer', { maxShellInvocations: 0 });
    const r = await authorize(dir, { role: rev, tool: 'read_file', source: 't', decide: () => ({ allowed: true, category: 'read', shellCharge: 0 }) });
    assert.equal(r.events[0]!.type, 'RoleChanged');
    assert.equal(r.line, 'Budget[reviewer]: tokens 0/200000 (0%) | shell 0/0 (0%) | cost $0.00/$5.00 (0%) → OK');
    const coder = makeRole('coder', { maxShellInvocations: 10 });
    for (let i = 0; i < 9; i++) await shellCall(dir, coder);
    await charge(dir, { role: coder, tool: 'r', tokens: 7, costUsd: 0.3, estimated: true, source: 't' });
    assert.deepEqual(await foldLedger(dir), accountingOf(readLedger(dir)));
    assert.equal(currentStatus(dir, coder).dimensions.shell.used, 9);
    assert.equal(currentStatus(dir, rev).dimensions.shell.used, 0, 'another role reads as a fresh budget');
    await resetSession(dir, 'coder', 'test');
    assert.equal(currentStatus(dir, coder).signal, 'OK');
    assert.deepEqual(readLedger(dir)!.usage, { tokens: 0, shell: 0, costUsd: 0 });
    assert.deepEqual(await foldLedger(dir), accountingOf(readLedger(dir)));
  });
}
