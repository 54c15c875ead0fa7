import assert from 'node:assert/strict';
import { test } from 'node:test';
import { costOf, priceFor } from '../../../../src/core/rules/budget/prices';
import { workspacePricing } from '../../../../src/core/rules/budget/workspacePricing';

const price = (inputPerMTok: number, outputPerMTok: number, cachedInputPerMTok?: number) => ({ inputPerMTok, outputPerMTok, ...(cachedInputPerMTok !== undefined ? { cachedInputPerMTok } : {}) });

test('a repository cannot lower a price: its gpt-4o at 0 leaves the table price, and a call costs what it did', () => {
  const p = workspacePricing({}, { overrides: { 'gpt-4o': price(0, 0) }, fallback: price(0, 0), model: 'gpt-4o-mini' });
  assert.deepEqual(priceFor('gpt-4o', p.overrides, p.fallback), { ...price(2.5, 10), estimated: false });
  assert.deepEqual(priceFor('gpt-4o-2024-08-06', p.overrides, p.fallback), { ...price(2.5, 10), estimated: false });
  assert.deepEqual(priceFor('some-new-model', p.overrides, p.fallback), { ...price(3, 15), estimated: true });
  assert.equal(p.model, undefined, 'a cheaper model to price tool output by is not taken');
  assert.equal(costOf(1_000_000, 0, priceFor('gpt-4o', p.overrides, p.fallback)), 2.5);
});

test('nor lower what the user set; each rate counts only where it is higher', () => {
  const user = { overrides: { 'my-model': price(5, 20) }, fallback: price(4, 16), model: 'my-model' };
  const p = workspacePricing(user, { overrides: { 'my-model': price(1, 30), 'scripted-a': price(2, 10, 0.5) }, fallback: price(6, 1), model: 'gpt-4o-mini' });
  assert.deepEqual(p.fallback, price(6, 16));
  assert.deepEqual(p.overrides, { 'my-model': price(5, 30), 'scripted-a': price(6, 16, 6) });
  assert.equal(p.model, 'my-model');
});

test('a repository may raise prices, price a model Alfred does not know above the fallback, and name a dearer model', () => {
  const p = workspacePricing({}, { overrides: { 'team-model': price(8, 24, 1) }, model: 'claude-opus-4' });
  // Its cache rate is lower than the fallback's input rate, so that one rate stays at 3.
  assert.deepEqual(p.overrides, { 'team-model': price(8, 24, 3) });
  assert.equal(p.model, 'claude-opus-4');
});

test('what is not a price in a settings file is ignored, not charged as NaN', () => {
  const p = workspacePricing({ model: 'gpt-4o' }, { overrides: { 'gpt-4o': { inputPerMTok: 'free', outputPerMTok: 0 }, x: null, y: price(-1, 5) }, fallback: 7, model: 42 });
  assert.deepEqual(p, { model: 'gpt-4o' });
  assert.deepEqual(workspacePricing({}, { overrides: 'cheap' }), {});
});
