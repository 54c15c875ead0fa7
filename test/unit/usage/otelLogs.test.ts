import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { OtelLogUsageReader } from '../../../src/core/usage/otelLogs';
import { OtelUsageReader } from '../../../src/core/usage/otelSpans';
import { UsageDeduper } from '../../../src/core/usage/otelDedupe';
import type { ModelUsageRecord } from '../../../src/core/usage/types';

const FIXTURES = path.resolve(import.meta.dirname, '..', '..', 'fixtures', 'usage');
const fixture = (name: string): string => fs.readFileSync(path.join(FIXTURES, name), 'utf8');
const fixtureLines = (name: string): string[] => fixture(name).split('\n');
const NOW = new Date('2026-01-02T03:04:05.000Z');
const reader = () => new OtelLogUsageReader({ now: () => NOW });
const NO_SKIPS = { otherEvents: 0, inferenceWithoutUsage: 0, spanLines: 0, metricLines: 0, unparsable: 0, unknown: 0 };

const SESSION = '6f1c2a7e-3b9d-4c52-9a41-0d2e8b7f5c13';
/** The recorded turn's two inference events: input and output only (no cache, no reasoning in the event). */
const LOG_1: ModelUsageRecord = {
  id: 'response:resp-5a0f3e21-round1', source: 'copilot-otel', sessionId: SESSION, model: 'gpt-4o-2024-11-20',
  inputTokens: 12450, outputTokens: 310, cachedInputTokens: 0, cacheCreationInputTokens: 0, reasoningTokens: 0,
  at: '2026-12-01T17:23:04.920Z', measured: true,
};
const LOG_2: ModelUsageRecord = {
  id: 'response:resp-9c44b7d0-round2', source: 'copilot-otel', sessionId: SESSION, model: 'claude-sonnet-4',
  inputTokens: 13020, outputTokens: 655, cachedInputTokens: 0, cacheCreationInputTokens: 0, reasoningTokens: 0,
  at: '2026-12-01T17:23:04.940Z', measured: true,
};

test('a recorded OTLP log export: one record per inference event, the session joined from session.start by trace', () => {
  const r = reader();
  assert.deepEqual(r.ingest(fixture('otlp-logs.json')), [LOG_1, LOG_2]);
  // Two agent.turn events (their tokens repeat the calls') and a tool call.
  assert.deepEqual(r.skipped, { ...NO_SKIPS, otherEvents: 3 });
});

test('the inference events of one agent loop share the trace context of its invoke_agent, not their chat spans\'', () => {
  const records = JSON.parse(fixture('otlp-logs.json')).resourceLogs[0].scopeLogs[0].logRecords as { traceId: string; spanId: string; body: { stringValue: string } }[];
  const inference = records.filter((l) => l.body.stringValue.startsWith('GenAI inference: '));
  assert.deepEqual(new Set(inference.map((l) => `${l.traceId}:${l.spanId}`)).size, 1, 'keyed on traceId:spanId, both calls would be one');
  const spans = JSON.parse(fixture('otlp-traces.json')).resourceSpans[0].scopeSpans[0].spans as { spanId: string; name: string }[];
  assert.equal(spans.find((s) => s.name.startsWith('invoke_agent'))!.spanId, inference[0]!.spanId);
  assert.deepEqual(reader().ingest(fixture('otlp-logs.json')).map((x) => x.id), ['response:resp-5a0f3e21-round1', 'response:resp-9c44b7d0-round2']);
});

test('a span and the log record of the same call share an id: charged once', () => {
  const spans = new OtelUsageReader().ingest(fixture('otlp-traces.json'));
  const logs = reader().ingest(fixture('otlp-logs.json'));
  const dedupe = new UsageDeduper();
  assert.deepEqual(dedupe.fresh(spans).map((x) => x.id), ['response:resp-5a0f3e21-round1', 'response:resp-9c44b7d0-round2']);
  assert.deepEqual(dedupe.fresh(logs), []);
});

test('the shipped file exporter (sdk-logs 0.212 records) gives the same records; spans and metrics are skipped', () => {
  const r = reader();
  assert.deepEqual(r.ingestLines(fixtureLines('file-exporter-shipped.jsonl')), [LOG_1, LOG_2]);
  assert.deepEqual(r.skipped, { ...NO_SKIPS, otherEvents: 3, spanLines: 4, metricLines: 2 });
});

test('sdk-logs 0.223 records (_hrTime, _spanContext); a failed call\'s event has no usage', () => {
  const r = reader();
  assert.deepEqual(r.ingestLines(fixtureLines('file-exporter-logs-0223.jsonl')), [{
    id: 'response:resp-1b2c3d4e-r1', source: 'copilot-otel', sessionId: 'c81d4e02-7a65-4f3b-b0e9-52f7a1d3c6e4', model: 'gpt-5-mini-2025-08-07',
    inputTokens: 9800, outputTokens: 1200, cachedInputTokens: 0, cacheCreationInputTokens: 0, reasoningTokens: 0,
    at: '2026-12-01T17:23:39.933Z', measured: true,
  }]);
  assert.deepEqual(r.skipped, { ...NO_SKIPS, otherEvents: 1, inferenceWithoutUsage: 1 });
});

test('the session learnt from one batch serves the next; an unknown trace has none', () => {
  const lines = fixtureLines('file-exporter-logs-0223.jsonl').filter(Boolean);
  const r = reader();
  assert.deepEqual(r.ingestLines([lines[0]!]), []);
  assert.deepEqual(r.ingestLines([lines[1]!]).map((x) => x.sessionId), ['c81d4e02-7a65-4f3b-b0e9-52f7a1d3c6e4']);
  assert.deepEqual(reader().ingestLines([lines[1]!]).map((x) => x.sessionId), [undefined]);
});

test('without a response id the key is the record\'s trace, span and time; without an event name the body tells', () => {
  const line = JSON.stringify({
    hrTime: [1767225600, 5000000], spanContext: { traceId: 'tt', spanId: 'ss', traceFlags: 1 }, resource: { _rawAttributes: [['service.name', 'copilot-chat']] },
    attributes: { 'gen_ai.usage.input_tokens': 70, 'gen_ai.usage.output_tokens': 7 }, _body: 'GenAI inference: gpt-4o-mini',
  });
  assert.deepEqual(reader().ingestLines([line]), [{
    id: 'tt:ss:1767225600005000000', source: 'copilot-otel', model: 'gpt-4o-mini', inputTokens: 70, outputTokens: 7,
    cachedInputTokens: 0, cacheCreationInputTokens: 0, reasoningTokens: 0, at: '2026-01-01T00:00:00.005Z', measured: true,
  }]);
});

test('an OTLP log record without trace context or time, with eventName as a field and int64 strings', () => {
  const b = { resourceLogs: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'github-copilot' } }] }, scopeLogs: [{ logRecords: [
    { timeUnixNano: '0', observedTimeUnixNano: '1767225600250000000', eventName: 'gen_ai.client.inference.operation.details', body: { stringValue: 'x' },
      attributes: [{ key: 'gen_ai.request.model', value: { stringValue: 'gpt-5' } }, { key: 'gen_ai.usage.input_tokens', value: { intValue: '300' } }, { key: 'gen_ai.usage.output_tokens', value: { intValue: '30' } }] },
    { body: { stringValue: 'GenAI inference: gpt-5' }, attributes: [] },
  ] }] }] };
  const r = reader();
  assert.deepEqual(r.ingest(b), [{
    id: '-:-:1767225600250000000', source: 'copilot-cli-otel', model: 'gpt-5', inputTokens: 300, outputTokens: 30,
    cachedInputTokens: 0, cacheCreationInputTokens: 0, reasoningTokens: 0, at: '2026-01-01T00:00:00.250Z', measured: true,
  }]);
  assert.deepEqual(r.skipped, { ...NO_SKIPS, inferenceWithoutUsage: 1 });
});

test('bodies and lines that are not logs are counted, never thrown on', () => {
  const r = reader();
  for (const b of ['{oops', '{"resourceSpans":[]}', null, { resourceLogs: [7, { scopeLogs: [{ logRecords: [null, 'x'] }] }] }]) assert.deepEqual(r.ingest(b), []);
  assert.deepEqual(r.ingestLines(['nope', '{}', '{"traceId":"a","spanId":"b","name":"chat x"}', '{"scopeMetrics":[]}', '{"a":1}', '']), []);
  assert.deepEqual(r.skipped, { ...NO_SKIPS, unparsable: 2, unknown: 5, spanLines: 2, metricLines: 1 });
});

test('the deduper forgets its oldest ids past its bound', () => {
  const rec = (id: string) => ({ id }) as ModelUsageRecord;
  const d = new UsageDeduper(2);
  assert.deepEqual(d.fresh([rec('a'), rec('b'), rec('a')]).map((x) => x.id), ['a', 'b']);
  assert.deepEqual(d.fresh([rec('c'), rec('b')]).map((x) => x.id), ['c']);
  assert.deepEqual(d.fresh([rec('a')]).map((x) => x.id), ['a'], '"a" was the oldest, forgotten when "c" came');
});
