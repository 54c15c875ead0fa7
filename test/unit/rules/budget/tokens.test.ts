import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countTokens, countTokensSync, estimateTokens, isTokenizerLoaded } from '../../../../src/core/rules/budget/tokens';

test('the tokenizer loads lazily and counts with o200k_base', async () => {
  assert.equal(isTokenizerLoaded(), false, 'importing tokens.ts must not load the tokenizer');
  assert.equal(countTokensSync('hello world'), undefined);
  assert.equal(await countTokens('hello world'), 2);
  assert.equal(isTokenizerLoaded(), true);
  assert.equal(countTokensSync('hello world'), 2);
  assert.equal(await countTokens(''), 0);
});

test('special-token text is counted as plain text, not an error', async () => {
  const n = await countTokens('a <|endoftext|> b');
  assert.ok(n > 3, `got ${n}`);
});

test('the estimate is about four characters a token', () => {
  assert.equal(estimateTokens('abcdefgh'), 2);
  assert.equal(estimateTokens(''), 0);
});
