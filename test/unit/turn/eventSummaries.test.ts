import assert from 'node:assert/strict';
import { test } from 'node:test';
import { summarizeEvent } from '../../../src/core/base/events/summary';
import type { AlfredEvent } from '../../../src/core/base/events/types';

const base = { id: 'e', ts: '2025-01-01T00:00:00.000Z', session: 's', role: 'coder' };
const ev = (e: Record<string, unknown>) => ({ ...base, ...e }) as AlfredEvent;

test('@alfred\'s events read as one line each in the feed and `alfred events`', () => {
  assert.equal(summarizeEvent(ev({ type: 'ModelUsage', model: 'gpt-4o', inputTokens: 1200, outputTokens: 80, costUsd: 0.0038 })), 'gpt-4o used 1200 tokens in, 80 out, $0.0038');
  assert.equal(summarizeEvent(ev({ type: 'ModelFailover', profile: 'pair', from: 'a', to: 'b', reason: 'failures', failures: 2 })), 'Profile pair switched from a to b after 2 failures in a row');
  assert.equal(summarizeEvent(ev({ type: 'ModelFailover', profile: 'pair', from: 'a', to: 'b', reason: 'unavailable', failures: 0 })), 'Profile pair switched from a to b: a is unavailable');
  assert.equal(summarizeEvent(ev({ type: 'PackSelected', pack: 'testing', reason: 'trigger' })), 'Pack testing chosen (trigger)');
  assert.equal(summarizeEvent(ev({ type: 'SpendWarning', level: 'critical', spentUsd: 2.5, capUsd: 2, percent: 125 })), 'Daily spend cap reached: $2.50 of $2.00 today (125%)');
});
