import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_FALLBACK_PRICE, costOf, normalizeModelId, priceFor } from '../../../../src/core/rules/budget/prices';

test('known models match by family, case-insensitively, longest prefix first', () => {
  assert.deepEqual(priceFor('gpt-4o'), { inputPerMTok: 2.5, outputPerMTok: 10, estimated: false });
  assert.equal(priceFor('GPT-4o-mini-2024-07-18').inputPerMTok, 0.15);
  assert.equal(priceFor('gpt-4.1').inputPerMTok, 2);
  assert.equal(priceFor('gpt-4.1-mini').inputPerMTok, 0.4);
  assert.equal(priceFor('o3').outputPerMTok, 8);
  assert.equal(priceFor('o3-mini').outputPerMTok, 4.4);
  assert.equal(priceFor('o4-mini-2025-04-16').inputPerMTok, 1.1);
  assert.equal(priceFor('gpt-5-mini').inputPerMTok, 0.25);
  assert.equal(priceFor('gpt-5.1').inputPerMTok, 1.25);
  assert.equal(priceFor('claude-sonnet-4-20250514').inputPerMTok, 3);
  assert.equal(priceFor('claude-sonnet-4.5').inputPerMTok, 3);
  assert.equal(priceFor('Claude-3.5-Sonnet').outputPerMTok, 15);
  assert.equal(priceFor('claude-opus-4-1').inputPerMTok, 15);
  assert.equal(priceFor('claude-opus-4.5').inputPerMTok, 5);
  assert.equal(priceFor('claude-haiku-4.5').inputPerMTok, 1);
  assert.equal(priceFor('gemini-2.5-pro').inputPerMTok, 1.25);
  assert.equal(priceFor('gemini-2.5-flash').outputPerMTok, 2.5);
  assert.equal(priceFor('gemini-2.5-flash-lite').outputPerMTok, 0.4);
  assert.equal(priceFor('copilot/gpt-4o').inputPerMTok, 2.5, 'vendor prefix dropped');
});

test('a prefix must end at a separator', () => {
  assert.equal(priceFor('o30-preview').estimated, true);
  assert.equal(normalizeModelId(' Anthropic/Claude_3.5 Sonnet '), 'claude-3-5-sonnet');
});

test('unknown or missing models use the fallback and are estimated', () => {
  assert.deepEqual(priceFor('llama-3-70b'), { ...DEFAULT_FALLBACK_PRICE, estimated: true });
  assert.deepEqual(priceFor(undefined), { ...DEFAULT_FALLBACK_PRICE, estimated: true });
  assert.deepEqual(priceFor('mystery', undefined, { inputPerMTok: 1, outputPerMTok: 2 }), { inputPerMTok: 1, outputPerMTok: 2, estimated: true });
});

test('overrides extend and replace the table', () => {
  const overrides = { 'llama-3': { inputPerMTok: 0.5, outputPerMTok: 0.7 }, 'GPT-4o': { inputPerMTok: 9, outputPerMTok: 9 } };
  assert.deepEqual(priceFor('llama-3-70b', overrides), { inputPerMTok: 0.5, outputPerMTok: 0.7, estimated: false });
  assert.equal(priceFor('gpt-4o', overrides).inputPerMTok, 9);
  assert.equal(priceFor('gpt-4o-mini', overrides).inputPerMTok, 0.15, 'a longer table key still wins');
});

test('costOf prices input and output per million tokens', () => {
  assert.equal(costOf(1_000_000, 0, { inputPerMTok: 2.5, outputPerMTok: 10 }), 2.5);
  assert.equal(costOf(200_000, 50_000, { inputPerMTok: 2.5, outputPerMTok: 10 }), 1);
  assert.equal(costOf(-5, 0, { inputPerMTok: 2.5, outputPerMTok: 10 }), 0);
});

test('Alfred\'s own models are priced by their whole id, or by their provider\'s `alfred/<provider>/` key; other models as before', () => {
  const overrides = {
    'alfred/cheap/': { inputPerMTok: 0.1, outputPerMTok: 0.2 },
    'alfred/cheap/special': { inputPerMTok: 5, outputPerMTok: 6 },
    'alfred/pricey/gpt-4o': { inputPerMTok: 9, outputPerMTok: 9 },
  };
  assert.deepEqual(priceFor('alfred/cheap/llama3', overrides), { inputPerMTok: 0.1, outputPerMTok: 0.2, estimated: false });
  assert.deepEqual(priceFor('alfred/cheap/special', overrides), { inputPerMTok: 5, outputPerMTok: 6, estimated: false });
  assert.deepEqual(priceFor('alfred/pricey/gpt-4o', overrides), { inputPerMTok: 9, outputPerMTok: 9, estimated: false });
  assert.equal(priceFor('alfred/other/gpt-4o', overrides).inputPerMTok, 2.5, 'no provider price: the table by the model\'s name');
  assert.equal(priceFor('gpt-4o', overrides).inputPerMTok, 2.5);
});
