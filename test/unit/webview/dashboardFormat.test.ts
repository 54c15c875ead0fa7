import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dimensionText, formatCount, formatUsd } from '../../../src/protocol/dashboardFormat';

const WORDS = { notAllowed: 'not allowed', notAllowedUsed: 'not allowed · {0} used' };

test('large numbers carry the display language\'s separators', () => {
  assert.equal(formatCount(200000, 'en'), '200,000');
  assert.equal(formatCount(200000, 'es'), '200.000');
  assert.equal(formatCount(1234567, 'de'), '1.234.567');
  assert.equal(formatCount(999, 'en'), '999');
  assert.equal(formatCount(12.6, 'en'), '13');
  // An unknown or empty language reads as English, never throws.
  assert.equal(formatCount(24000, ''), '24,000');
  assert.equal(formatCount(24000, 'not a locale!'), '24,000');
});

test('dollars: two decimals, more below a dollar so sub-cent spend shows, with the separators', () => {
  assert.equal(formatUsd(5, 'en'), '$5.00');
  assert.equal(formatUsd(1234.5, 'en'), '$1,234.50');
  assert.equal(formatUsd(1234.5, 'es'), '$1234,50');
  assert.equal(formatUsd(12345.5, 'es'), '$12.345,50');
  assert.equal(formatUsd(0.0038, 'en'), '$0.0038');
  assert.equal(formatUsd(0, 'en'), '$0.00');
});

test('a limit of 0 says "not allowed", with what was used anyway; other limits show used / limit (percent)', () => {
  const count = (n: number) => formatCount(n, 'en');
  assert.equal(dimensionText({ used: 0, limit: 0, percent: 0 }, count, WORDS), 'not allowed');
  assert.equal(dimensionText({ used: 2, limit: 0, percent: 100 }, count, WORDS), 'not allowed · 2 used');
  assert.equal(dimensionText({ used: 24000, limit: 200000, percent: 12 }, count, WORDS), '24,000 / 200,000 (12%)');
  assert.equal(dimensionText({ used: 0, limit: 100, percent: 0 }, count, WORDS), '0 / 100 (0%)');
  assert.equal(dimensionText({ used: 0.5, limit: 5, percent: 10 }, (n) => formatUsd(n, 'en'), WORDS), '$0.50 / $5.00 (10%)');
});
