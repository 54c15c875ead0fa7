import { test } from 'node:test';
import assert from 'node:assert/strict';
import { budgetStatus, crossings, formatBudgetLine, percentOf, signalFor } from '../../../../src/core/rules/budget/status';
import { makeRole } from '../../../fixtures/budget-role';

const coder = makeRole('coder');
const usage = (tokens: number, shell: number, costUsd: number) => ({ tokens, shell, costUsd });

test('the status line matches the documented budget line verbatim (docs/roles-and-budgets.md)', () => {
  const s = budgetStatus(coder, usage(50_000, 5, 0.5), false);
  assert.equal(formatBudgetLine(s), 'Budget[coder]: tokens 50000/200000 (25%) | shell 5/100 (5%) | cost $0.50/$5.00 (10%) → OK');
});

test('an estimated cost is written with a tilde', () => {
  const s = budgetStatus(coder, usage(50_000, 5, 0.5), true);
  assert.equal(formatBudgetLine(s), 'Budget[coder]: tokens 50000/200000 (25%) | shell 5/100 (5%) | cost ~$0.50/$5.00 (10%) → OK');
});

test('large numbers have no thousands separators, cost two decimals', () => {
  const role = makeRole('admin', { maxContextTokens: 1_500_000, maxShellInvocations: 500, maxCostUsd: 50 });
  const s = budgetStatus(role, usage(1_234_567, 450, 12.345), false);
  assert.equal(formatBudgetLine(s), 'Budget[admin]: tokens 1234567/1500000 (82%) | shell 450/500 (90%) | cost $12.35/$50.00 (24%) → WARNING');
});

test('percent is floored and limit 0 is 0% unused, 100% used', () => {
  assert.equal(percentOf(199, 200), 99);
  assert.equal(percentOf(0.29, 1), 29, 'float noise must not lose a percent');
  assert.equal(percentOf(0, 0), 0);
  assert.equal(percentOf(1, 0), 100);
  assert.equal(percentOf(250, 100), 250);
});

test('thresholds 79 / 80 / 99 / 100 with the defaults', () => {
  const role = makeRole('coder', { maxShellInvocations: 100 });
  const sig = (shell: number) => budgetStatus(role, usage(0, shell, 0), false).dimensions.shell.signal;
  assert.equal(sig(79), 'OK');
  assert.equal(sig(80), 'WARNING');
  assert.equal(sig(99), 'WARNING');
  assert.equal(sig(100), 'EXHAUSTED');
  assert.equal(sig(150), 'EXHAUSTED');
});

test('custom warn and block thresholds', () => {
  const role = makeRole('ops', { maxShellInvocations: 10, warnAtPercent: 50, blockAtPercent: 90 });
  const sig = (shell: number) => budgetStatus(role, usage(0, shell, 0), false).dimensions.shell.signal;
  assert.deepEqual([4, 5, 8, 9, 10].map(sig), ['OK', 'WARNING', 'WARNING', 'EXHAUSTED', 'EXHAUSTED']);
  assert.equal(signalFor(100, 100, 100), 'EXHAUSTED');
  assert.equal(signalFor(99, 100, 100), 'OK');
});

test('limit 0: OK while unused, EXHAUSTED once used', () => {
  const reviewer = makeRole('reviewer', { maxShellInvocations: 0 });
  const unused = budgetStatus(reviewer, usage(0, 0, 0), false);
  assert.deepEqual(unused.dimensions.shell, { used: 0, limit: 0, percent: 0, signal: 'OK' });
  const used = budgetStatus(reviewer, usage(0, 1, 0), false);
  assert.deepEqual(used.dimensions.shell, { used: 1, limit: 0, percent: 100, signal: 'EXHAUSTED' });
  assert.match(formatBudgetLine(used), /shell 1\/0 \(100%\)/);
});

test('the overall signal is the worst dimension', () => {
  assert.equal(budgetStatus(coder, usage(0, 0, 0), false).signal, 'OK');
  assert.equal(budgetStatus(coder, usage(0, 0, 4), false).signal, 'WARNING');
  const s = budgetStatus(coder, usage(170_000, 0, 5), false);
  assert.equal(s.dimensions.tokens.signal, 'WARNING');
  assert.equal(s.dimensions.cost.signal, 'EXHAUSTED');
  assert.equal(s.signal, 'EXHAUSTED');
  assert.match(formatBudgetLine(s), / → EXHAUSTED$/);
});

test('crossings: only dimensions that rose, with their new level', () => {
  const a = budgetStatus(coder, usage(0, 79, 1), false);
  const b = budgetStatus(coder, usage(0, 80, 5), false);
  assert.deepEqual(crossings(a, b), [
    { dimension: 'shell', from: 'OK', to: 'WARNING' },
    { dimension: 'cost', from: 'OK', to: 'EXHAUSTED' },
  ]);
  const c = budgetStatus(coder, usage(0, 81, 6), false);
  assert.deepEqual(crossings(b, c), [], 'staying at a level is not a new crossing');
  assert.deepEqual(crossings(c, a), [], 'falling is not a crossing');
});
