/** formatUsd without a locale writes its digits without Intl (a hook call would pay for building one). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatUsd } from '../../../src/core/base/money';

/** What the budget line wrote with Intl before: English digits, no grouping, 2 to `max` decimals. */
const intl = (n: number, max: number) => `$${new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: max, useGrouping: false }).format(n)}`;

test('without a locale, the digits are Intl\'s to the last one, ties included', () => {
  assert.equal(formatUsd(1.005), '$1.01', 'half away from zero on the shortest decimal (toFixed gives 1.00)');
  assert.equal(formatUsd(0.825), '$0.825');
  assert.equal(formatUsd(0.0007), '$0.0007');
  assert.equal(formatUsd(0.000012345), '$0.000012');
  assert.equal(formatUsd(1234.5), '$1234.50');
  assert.equal(formatUsd(99.995), '$100.00');
  assert.equal(formatUsd(0), '$0.00');
  assert.equal(formatUsd(-0.5), '-$0.50');
  assert.equal(formatUsd(1e-12), '$0.00', 'below a tenth of a billionth of a dollar, nothing worth a digit');
  for (let e = -11; e <= 9; e++) {
    for (const m of [1, 1.005, 1.25, 2.5, 3.14159, 4.9995, 5.55555, 9.99999]) {
      const n = m * 10 ** e;
      const max = n >= 1 ? 2 : n >= 0.0001 ? 4 : Math.min(10, Math.ceil(-Math.log10(n)) + 1);
      assert.equal(formatUsd(n), intl(n, max), String(n));
    }
  }
});
