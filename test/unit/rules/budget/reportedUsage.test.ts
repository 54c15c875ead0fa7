import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseReportedUsage } from '../../../../src/core/rules/budget/reportedUsage';

const bytes = (v: unknown): Uint8Array => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v));

describe('a usage report in Copilot\'s format (mime type `usage`, OpenAI\'s usage object)', () => {
  it('reads prompt, completion and cached tokens', () => {
    const report = { prompt_tokens: 1200, completion_tokens: 80, total_tokens: 1280, prompt_tokens_details: { cached_tokens: 1024 } };
    assert.deepEqual(parseReportedUsage('usage', bytes(report)), { inputTokens: 1200, outputTokens: 80, cachedInputTokens: 1024 });
  });

  it('no prompt_tokens_details: nothing cached', () => {
    assert.deepEqual(parseReportedUsage('usage', bytes({ prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 })), { inputTokens: 10, outputTokens: 2, cachedInputTokens: 0 });
  });

  it('the mime type must be exactly `usage`, and the object OpenAI\'s (not wrapped in {usage})', () => {
    const report = { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 };
    assert.equal(parseReportedUsage('Usage', bytes(report)), undefined);
    assert.equal(parseReportedUsage('text/usage', bytes(report)), undefined);
    assert.equal(parseReportedUsage('usage', bytes({ usage: report })), undefined);
  });

  it('a report that could lower the charge by lying is not read: missing, negative, non-finite or string counts', () => {
    for (const bad of [
      { completion_tokens: 2 }, { prompt_tokens: 10 }, { prompt_tokens: -5, completion_tokens: 2 }, { prompt_tokens: 10, completion_tokens: -1 },
      { prompt_tokens: '10', completion_tokens: 2 },
    ]) assert.equal(parseReportedUsage('usage', bytes(bad)), undefined, JSON.stringify(bad));
    // 1e400 parses to Infinity.
    for (const raw of ['{"prompt_tokens":1e400,"completion_tokens":2}', 'not json', '[]', 'null', '42']) assert.equal(parseReportedUsage('usage', bytes(raw)), undefined, raw);
  });

  it('cached tokens never exceed the input; a bad cached count reads as none', () => {
    assert.deepEqual(parseReportedUsage('usage', bytes({ prompt_tokens: 100, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 5000 } })), { inputTokens: 100, outputTokens: 1, cachedInputTokens: 100 });
    for (const cached of [-1, '50', null, Number.NaN]) {
      assert.deepEqual(parseReportedUsage('usage', bytes({ prompt_tokens: 100, completion_tokens: 1, prompt_tokens_details: { cached_tokens: cached } })), { inputTokens: 100, outputTokens: 1, cachedInputTokens: 0 });
    }
  });

  it('a part far larger than any usage report is not parsed', () => {
    const padded = `{"prompt_tokens":10,"completion_tokens":2,"pad":"${'x'.repeat(70_000)}"}`;
    assert.equal(parseReportedUsage('usage', bytes(padded)), undefined);
  });
});

describe('a JSON data part holding {usage}', () => {
  it('Alfred\'s spelling, with cached input', () => {
    assert.deepEqual(parseReportedUsage('application/json', bytes({ usage: { inputTokens: 100, outputTokens: 10, cachedInputTokens: 60 } })), { inputTokens: 100, outputTokens: 10, cachedInputTokens: 60 });
  });

  it('OpenAI\'s spelling inside it, cached tokens from prompt_tokens_details', () => {
    assert.deepEqual(parseReportedUsage('application/json', bytes({ usage: { prompt_tokens: 100, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 30 } } })), { inputTokens: 100, outputTokens: 10, cachedInputTokens: 30 });
  });

  it('other data parts are not usage reports', () => {
    assert.equal(parseReportedUsage('image/png', bytes({ usage: { inputTokens: 1, outputTokens: 1 } })), undefined);
    assert.equal(parseReportedUsage('application/json', bytes({ inputTokens: 1, outputTokens: 1 })), undefined);
    assert.equal(parseReportedUsage('application/json', bytes({ usage: { inputTokens: 1 } })), undefined);
  });
});
