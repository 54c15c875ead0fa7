/** The usage summary: per agent session and per model, with the session's tool and shell calls; no price → n/a. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AlfredEvent } from '../../../src/core/base/events/types';
import type { UsageRecord } from '../../../src/core/models/spend';
import { addCharge, noCost, summarizeUsage } from '../../../src/core/usage/summary';

const record = (r: Partial<UsageRecord> & Pick<UsageRecord, 'ts' | 'model'>): UsageRecord => ({
  inputTokens: 0, outputTokens: 0, costUsd: 0, estimated: false, measured: 'reported', source: 'copilot-otel', ...r,
});

let n = 0;
const event = (e: Record<string, unknown>): AlfredEvent => ({ id: `e${++n}`, ts: '2026-03-02T10:00:00.000Z', type: 'ToolCall', session: 'b1', role: 'coder', ...e }) as AlfredEvent;
const decision = (agentSession: string | undefined, tool: string, opts: { shell?: number; deny?: boolean; ts?: string; source?: string } = {}) => event({
  phase: 'decision', tool, decision: opts.deny ? 'deny' : 'allow', source: opts.source ?? 'hook:PreToolUse', ...(opts.ts ? { ts: opts.ts } : {}),
  ...(agentSession ? { agentSession } : {}), charge: { shell: opts.shell ?? 0 },
});

const RECORDS: UsageRecord[] = [
  // Session A: one measured, priced request.
  record({ ts: '2026-03-02T10:00:01.000Z', model: 'gpt-4o', agentSession: 'A', inputTokens: 1200, cachedInputTokens: 200, outputTokens: 300, costUsd: 0.0055 }),
  // Session B: a model with no price (the fallback was charged, and the summary keeps it apart: fallbackUsd).
  record({ ts: '2026-03-02T10:00:02.000Z', model: 'acme-secret-1', agentSession: 'B', inputTokens: 500, outputTokens: 40, costUsd: 0.0123, estimated: true }),
  // @alfred's own request: counted by Alfred, priced: estimated.
  record({ ts: '2026-03-02T10:00:03.000Z', model: 'gpt-4o', source: 'chat', measured: 'counted', inputTokens: 1000, outputTokens: 100, costUsd: 0.0035 }),
];

const EVENTS: AlfredEvent[] = [
  decision('A', 'read_file'),
  event({ phase: 'result', tool: 'read_file', source: 'hook:PostToolUse', charge: { tokens: 90, costUsd: 0.0002 } }),
  decision('A', 'run_in_terminal', { shell: 1 }),
  decision('A', 'run_in_terminal', { deny: true }),
  decision('B', 'run_in_terminal', { shell: 1 }),
  decision('C', 'list_dir'),
  decision(undefined, 'ctx_read', { source: 'chat' }),
  event({ type: 'ShellExecution', command: 'ls', source: 'terminal', charge: { shell: 1 } }),
];

describe('summarizeUsage', () => {
  it('groups records and tool calls per agent session, exact values', () => {
    const s = summarizeUsage(RECORDS, undefined, EVENTS);
    assert.deepEqual(s.sessions, [
      { session: 'A', source: 'copilot-otel', models: ['gpt-4o'], lastSeen: '2026-03-02T10:00:01.000Z', calls: 1, inputTokens: 1200, outputTokens: 300, cachedInputTokens: 200,
        measuredUsd: 0.0055, estimatedUsd: 0, priced: 1, fallbackUsd: 0, toolCalls: 3, refused: 1, shellCalls: 1 },
      { session: 'B', source: 'copilot-otel', models: ['acme-secret-1'], lastSeen: '2026-03-02T10:00:02.000Z', calls: 1, inputTokens: 500, outputTokens: 40, cachedInputTokens: 0,
        measuredUsd: 0, estimatedUsd: 0, priced: 0, fallbackUsd: 0.0123, toolCalls: 1, refused: 0, shellCalls: 1 },
      { session: '(chat)', source: 'chat', models: ['gpt-4o'], lastSeen: '2026-03-02T10:00:03.000Z', calls: 1, inputTokens: 1000, outputTokens: 100, cachedInputTokens: 0,
        measuredUsd: 0, estimatedUsd: 0.0035, priced: 1, fallbackUsd: 0, toolCalls: 1, refused: 0, shellCalls: 0 },
      // Tool calls only: a session whose model use no one reported.
      { session: 'C', source: 'hook:PreToolUse', models: [], lastSeen: '2026-03-02T10:00:00.000Z', calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0,
        measuredUsd: 0, estimatedUsd: 0, priced: 0, fallbackUsd: 0, toolCalls: 1, refused: 0, shellCalls: 0 },
    ]);
    assert.deepEqual(s.total, { calls: 3, inputTokens: 2700, outputTokens: 440, cachedInputTokens: 200, measuredUsd: 0.0055, estimatedUsd: 0.0035, priced: 2, fallbackUsd: 0.0123, toolCalls: 6, refused: 1, shellCalls: 2 });
    assert.deepEqual(s.models.map((m) => [m.model, m.calls, m.inputTokens, m.outputTokens, m.measuredUsd, m.estimatedUsd, m.priced]), [
      ['gpt-4o', 2, 2200, 400, 0.0055, 0.0035, 2],
      ['acme-secret-1', 1, 500, 40, 0, 0, 0],
    ]);
  });

  it('leaves out what came before `since` (a day is its UTC start), records and tool calls alike', () => {
    const s = summarizeUsage(RECORDS, '2026-03-02T10:00:02Z', [...EVENTS, decision('A', 'read_file', { ts: '2026-03-02T10:00:05.000Z' })]);
    assert.equal(s.since, '2026-03-02T10:00:02Z');
    // The events at 10:00:00 are left out; A's later call is in, with none of A's model calls.
    assert.deepEqual(s.sessions.map((x) => [x.session, x.calls, x.toolCalls, x.lastSeen]),
      [['B', 1, 0, '2026-03-02T10:00:02.000Z'], ['(chat)', 1, 0, '2026-03-02T10:00:03.000Z'], ['A', 0, 1, '2026-03-02T10:00:05.000Z']]);
    const day = summarizeUsage(RECORDS, '2026-03-02', [decision('A', 'read_file', { ts: '2026-03-01T23:59:59.000Z' })]);
    assert.deepEqual([day.total.calls, day.total.toolCalls], [3, 0]);
  });
});

describe('addCharge', () => {
  it('splits a budget\'s cost into measured (reported, priced) and estimated (counted, or the fallback price)', () => {
    const events = [
      event({ type: 'ModelUsage', measured: 'reported', charge: { costUsd: 0.4 } }),
      event({ type: 'ModelUsage', measured: 'reported', charge: { costUsd: 0.01, estimated: true } }),
      event({ type: 'ModelUsage', measured: 'counted', charge: { costUsd: 0.005 } }),
      event({ phase: 'result', charge: { tokens: 10, costUsd: 0.005 } }),
      event({ phase: 'decision', charge: { shell: 1 } }),
    ];
    const split = events.reduce(addCharge, noCost());
    assert.equal(split.measuredUsd, 0.4);
    assert.equal(split.estimatedUsd.toFixed(6), '0.020000');
    assert.equal(split.fallback, true);
    assert.deepEqual(events.slice(2).reduce(addCharge, noCost()), { measuredUsd: 0, estimatedUsd: 0.01, fallback: false });
  });
});
