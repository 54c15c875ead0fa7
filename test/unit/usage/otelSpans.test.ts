import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { OtelUsageReader } from '../../../src/core/usage/otelSpans';
import type { ModelUsageRecord } from '../../../src/core/usage/types';

const FIXTURES = path.resolve(import.meta.dirname, '..', '..', 'fixtures', 'usage');
const fixture = (name: string): string => fs.readFileSync(path.join(FIXTURES, name), 'utf8');
const fixtureLines = (name: string): string[] => fixture(name).split('\n');
const NOW = new Date('2026-01-02T03:04:05.000Z');
const reader = (options = {}) => new OtelUsageReader({ now: () => NOW, ...options });
const NO_SKIPS = { emptySpans: 0, logLines: 0, metricLines: 0, unparsable: 0, unknown: 0, chatWithoutUsage: 0 };

const SESSION = '6f1c2a7e-3b9d-4c52-9a41-0d2e8b7f5c13';
/** The two chat rounds of the recorded agent turn (test/fixtures/usage/README.md). */
const ROUND_1: ModelUsageRecord = {
  id: 'response:resp-5a0f3e21-round1', source: 'copilot-otel', sessionId: SESSION, model: 'gpt-4o-2024-11-20',
  inputTokens: 12450, outputTokens: 310, cachedInputTokens: 8192, cacheCreationInputTokens: 0, reasoningTokens: 0,
  at: '2026-12-01T17:23:04.919Z', measured: true,
};
const ROUND_2: ModelUsageRecord = {
  id: 'response:resp-9c44b7d0-round2', source: 'copilot-otel', sessionId: SESSION, model: 'claude-sonnet-4',
  inputTokens: 13020, outputTokens: 655, cachedInputTokens: 12288, cacheCreationInputTokens: 512, reasoningTokens: 128,
  at: '2026-12-01T17:23:04.940Z', measured: true,
};

// ── Builders for hand-made OTLP/JSON bodies ──
type Value = string | number | boolean;
const kv = (attrs: Record<string, Value>) => Object.entries(attrs).map(([key, v]) => ({
  key, value: typeof v === 'string' ? { stringValue: v } : typeof v === 'boolean' ? { boolValue: v } : Number.isInteger(v) ? { intValue: v } : { doubleValue: v },
}));
interface SpanSpec { traceId?: string; spanId: string; parentSpanId?: string; name: string; end?: string | number; attrs: Record<string, Value> }
const span = (s: SpanSpec) => ({
  traceId: s.traceId ?? 'aaaa0000000000000000000000000001', spanId: s.spanId, ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
  name: s.name, kind: 3, startTimeUnixNano: '1767225600000000000', endTimeUnixNano: s.end ?? '1767225601500000000', attributes: kv(s.attrs),
});
const body = (spans: unknown[], serviceName = 'copilot-chat') => ({
  resourceSpans: [{ resource: { attributes: kv({ 'service.name': serviceName, 'session.id': 'the-window' }) }, scopeSpans: [{ scope: { name: 'copilot-chat' }, spans }] }],
});
/** An invoke_agent span; with `totals`, the usage its loop's rounds summed to. */
const agent = (spanId: string, session: string, parentSpanId?: string, traceId?: string, totals?: Record<string, Value>) => span({
  traceId, spanId, parentSpanId, name: 'invoke_agent GitHub Copilot Chat',
  attrs: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.conversation.id': session, 'copilot_chat.session_id': session, ...totals },
});
const TOTALS = { 'gen_ai.usage.input_tokens': 999999, 'gen_ai.usage.output_tokens': 99999 };
/** A chat span as the BYOK providers write it: no copilot_chat.session_id, gen_ai.conversation.id = the request id. */
const byokChat = (spanId: string, parentSpanId: string | undefined, responseId: string, traceId?: string) => span({
  traceId, spanId, parentSpanId, name: 'chat claude-opus-4',
  attrs: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'anthropic', 'gen_ai.request.model': 'claude-opus-4', 'gen_ai.conversation.id': `req-${responseId}`, 'gen_ai.response.id': responseId, 'gen_ai.usage.input_tokens': 100, 'gen_ai.usage.output_tokens': 10 },
});

test('a recorded Copilot Chat trace export: one record per chat span, never the invoke_agent totals', () => {
  const r = reader();
  assert.deepEqual(r.ingest(fixture('otlp-traces.json')), [ROUND_1, ROUND_2]);
  assert.deepEqual(r.skipped, NO_SKIPS);
});

test('a parsed body reads the same as its JSON text', () => {
  assert.deepEqual(reader().ingest(JSON.parse(fixture('otlp-traces.json'))), [ROUND_1, ROUND_2]);
  assert.deepEqual(reader().ingest(Buffer.from(fixture('otlp-traces.json'))), [ROUND_1, ROUND_2]);
});

test('the session of a chat span that does not name it comes from its invoke_agent in the same batch, in any order', () => {
  const r = reader();
  const records = r.ingest(body([byokChat('c1', 'a1', 'r1'), agent('a1', 'session-A', undefined, undefined, TOTALS)]));
  assert.deepEqual(records.map((x) => [x.id, x.sessionId]), [['response:r1', 'session-A']]);
});

test('… or in an earlier batch', () => {
  const r = reader();
  assert.deepEqual(r.ingest(body([agent('a1', 'session-A')])), []);
  assert.deepEqual(r.ingest(body([byokChat('c1', 'a1', 'r1')])).map((x) => x.sessionId), ['session-A']);
});

test('a chat span whose invoke_agent comes later has no session (it is not held back)', () => {
  const r = reader();
  const [first] = r.ingest(body([byokChat('c1', 'a1', 'r1')]));
  assert.equal(first!.sessionId, undefined);
  assert.equal('sessionId' in first!, false);
  // The invoke_agent arriving later gives nothing: its totals are the rounds' sum, already counted.
  assert.deepEqual(r.ingest(body([agent('a1', 'session-A', undefined, undefined, TOTALS)])), []);
});

test("a chat span's gen_ai.conversation.id alone is a request id in Copilot Chat 0.42 and the BYOK providers, not a session", () => {
  const [record] = reader().ingest(body([byokChat('c1', undefined, 'r1')]));
  assert.equal(record!.sessionId, undefined);
});

test('a subagent round belongs to the nearest invoke_agent: the subagent loop, under the parent\'s execute_tool', () => {
  const r = reader();
  const spans = [
    byokChat('c-sub', 'a-sub', 'r-sub'),
    agent('a-sub', 'session-SUB', 't-run'),
    span({ spanId: 't-run', parentSpanId: 'a-top', name: 'execute_tool runSubagent', attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'runSubagent' } }),
    byokChat('c-top', 'a-top', 'r-top'),
    byokChat('c-tool', 't-run', 'r-tool'), // directly under the execute_tool: up to the parent's loop
    agent('a-top', 'session-TOP'),
  ];
  assert.deepEqual(r.ingest(body(spans)).map((x) => [x.id, x.sessionId]), [
    ['response:r-sub', 'session-SUB'], ['response:r-top', 'session-TOP'], ['response:r-tool', 'session-TOP'],
  ]);
});

test('a model another extension provides: no chat span, so the invoke_agent totals are the record, cache and reasoning included', () => {
  const r = reader();
  const totals = { 'gen_ai.response.model': 'scripted-a', 'gen_ai.usage.input_tokens': 1200, 'gen_ai.usage.output_tokens': 80, 'gen_ai.usage.cache_read.input_tokens': 1000, 'gen_ai.usage.reasoning.output_tokens': 5 };
  assert.deepEqual(r.ingest(body([agent('a1', 'session-X', undefined, undefined, totals)])), [{
    id: 'agent:aaaa0000000000000000000000000001:a1', source: 'copilot-otel', sessionId: 'session-X', model: 'scripted-a',
    inputTokens: 1200, outputTokens: 80, cachedInputTokens: 1000, cacheCreationInputTokens: 0, reasoningTokens: 5,
    at: '2026-01-01T00:00:01.500Z', measured: true,
  }]);
  assert.deepEqual(r.ingest(body([agent('a1', 'session-X', undefined, undefined, totals)])).map((x) => x.id), ['agent:aaaa0000000000000000000000000001:a1'],
    'the reader does not dedupe an exporter\'s retry: the id does (UsageDeduper, the ledger)');
});

test('an invoke_agent whose chat spans came in an earlier batch is not counted again; one with zero totals gives nothing', () => {
  const r = reader();
  assert.deepEqual(r.ingest(body([byokChat('c1', 'a1', 'r1')])).map((x) => x.id), ['response:r1']);
  assert.deepEqual(r.ingest(body([agent('a1', 'session-A', undefined, undefined, TOTALS)])), []);
  assert.deepEqual(r.ingest(body([agent('a2', 'session-B', undefined, undefined, { 'gen_ai.usage.input_tokens': 0, 'gen_ai.usage.output_tokens': 0 })])), []);
  assert.deepEqual(r.ingest(body([agent('a3', 'session-B')])), []);
});

test('a subagent on an extension model: its own loop is its own record, the parent\'s chat rounds are not counted twice', () => {
  const r = reader();
  const spans = [
    agent('a-sub', 'session-SUB', 't-run', undefined, { 'gen_ai.usage.input_tokens': 300, 'gen_ai.usage.output_tokens': 30 }),
    span({ spanId: 't-run', parentSpanId: 'a-top', name: 'execute_tool runSubagent', attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'runSubagent' } }),
    byokChat('c-top', 'a-top', 'r-top'),
    agent('a-top', 'session-TOP', undefined, undefined, TOTALS),
  ];
  assert.deepEqual(r.ingest(body(spans)).map((x) => [x.id, x.sessionId, x.inputTokens]), [
    ['response:r-top', 'session-TOP', 100], ['agent:aaaa0000000000000000000000000001:a-sub', 'session-SUB', 300],
  ]);
});

test('a chat span with an unknown parent falls back to the session of its trace\'s top-level invoke_agent', () => {
  const r = reader();
  r.ingest(body([agent('a-sub', 'session-SUB', 't-run'), agent('a-top', 'session-TOP')]));
  assert.deepEqual(r.ingest(body([byokChat('c1', 'unseen-span', 'r1')])).map((x) => x.sessionId), ['session-TOP']);
  assert.deepEqual(r.ingest(body([byokChat('c2', undefined, 'r2', 'bbbb0000000000000000000000000002')])).map((x) => x.sessionId), [undefined]);
});

test('what is remembered across batches is bounded: the oldest traces are forgotten', () => {
  const r = reader({ maxTraces: 1, maxSpans: 1 });
  r.ingest(body([agent('a1', 'session-A', undefined, 'trace-1'), agent('a2', 'session-B', undefined, 'trace-2')]));
  assert.deepEqual(r.ingest(body([byokChat('c1', 'x', 'r1', 'trace-1'), byokChat('c2', 'x', 'r2', 'trace-2'), byokChat('c3', 'a2', 'r3', 'trace-9')])).map((x) => x.sessionId),
    [undefined, 'session-B', 'session-B']);
});

test('int64 as strings, times as numbers, no response id, no model attribute, no end time', () => {
  const raw = {
    resourceSpans: [{ resource: {}, scopeSpans: [{ spans: [
      { traceId: 't1', spanId: 's1', name: 'chat gpt-4.1', endTimeUnixNano: 1767225601500000000, attributes: [
        { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
        { key: 'gen_ai.usage.input_tokens', value: { intValue: '2048' } },
        { key: 'gen_ai.usage.output_tokens', value: { intValue: '17' } },
        { key: 'gen_ai.usage.cache_read.input_tokens', value: { intValue: '1024' } },
        { key: 'gen_ai.usage.reasoning_tokens', value: { intValue: '5' } },
        { key: 'copilot_chat.session_id', value: { stringValue: 'S' } },
      ] },
      { traceId: 't1', spanId: 's2', name: 'chat', attributes: [
        { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
        { key: 'gen_ai.usage.output_tokens', value: { doubleValue: 3.0 } },
      ] },
    ] }] }],
  };
  assert.deepEqual(reader().ingest(raw), [
    { id: 't1:s1', source: 'copilot-otel', sessionId: 'S', model: 'gpt-4.1', inputTokens: 2048, outputTokens: 17, cachedInputTokens: 1024, cacheCreationInputTokens: 0, reasoningTokens: 5, at: '2026-01-01T00:00:01.500Z', measured: true },
    { id: 't1:s2', source: 'copilot-otel', model: 'unknown', inputTokens: 0, outputTokens: 3, cachedInputTokens: 0, cacheCreationInputTokens: 0, reasoningTokens: 0, at: '2026-01-02T03:04:05.000Z', measured: true },
  ]);
});

test('reasoning counts emitted under both names are one count; the newer name wins', () => {
  const spans = [span({ spanId: 's1', name: 'chat o3', attrs: { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 10, 'gen_ai.usage.output_tokens': 400, 'gen_ai.usage.reasoning_tokens': 300, 'gen_ai.usage.reasoning.output_tokens': 320 } })];
  assert.equal(reader().ingest(body(spans))[0]!.reasoningTokens, 320);
});

test('input reported without its cache parts (Anthropic\'s disjoint fields) is made whole', () => {
  const spans = [span({ spanId: 's1', name: 'chat claude-sonnet-4', attrs: { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 241, 'gen_ai.usage.output_tokens': 168, 'gen_ai.usage.cache_read.input_tokens': 49336, 'gen_ai.usage.cache_creation.input_tokens': 492 } })];
  const [r] = reader().ingest(body(spans));
  assert.deepEqual([r!.inputTokens, r!.cachedInputTokens, r!.cacheCreationInputTokens], [50069, 49336, 492]);
});

test('chat spans without usage (failed calls) and bad values give no record and are counted', () => {
  const r = reader();
  const spans = [
    span({ spanId: 's1', name: 'chat gpt-4o', attrs: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'error.type': 'canceled' } }),
    span({ spanId: 's2', name: 'chat gpt-4o', attrs: { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': -5, 'gen_ai.usage.output_tokens': 'many' } }),
    { spanId: 'no-trace', name: 'chat x', attributes: [] },
    'not a span',
    span({ spanId: 's3', name: 'embeddings', attrs: { 'gen_ai.operation.name': 'embeddings', 'gen_ai.usage.input_tokens': 50 } }),
  ];
  assert.deepEqual(r.ingest(body(spans)), []);
  assert.deepEqual(r.skipped, { ...NO_SKIPS, chatWithoutUsage: 2, unknown: 2 });
});

test('a span without gen_ai.operation.name is a chat span only by its name', () => {
  const spans = [span({ spanId: 's1', name: 'chat gpt-4o', attrs: { 'gen_ai.usage.input_tokens': 1, 'gen_ai.usage.output_tokens': 2 } }),
    span({ spanId: 's2', name: 'chatter', attrs: { 'gen_ai.usage.input_tokens': 1 } })];
  assert.deepEqual(reader().ingest(body(spans)).map((x) => [x.id, x.model]), [['aaaa0000000000000000000000000001:s1', 'gpt-4o']]);
});

test('bodies that are not trace exports are counted, never thrown on', () => {
  const r = reader();
  for (const b of ['{not json', '[]', 'null', '{"resourceLogs":[]}', 42, null, undefined, { resourceSpans: [null, { scopeSpans: 'x' }, { scopeSpans: [{ spans: 'y' }] }] }]) {
    assert.deepEqual(r.ingest(b), []);
  }
  assert.deepEqual(r.skipped, { ...NO_SKIPS, unparsable: 1, unknown: 6 });
});

test('the shipped file exporter\'s lines: its spans are {} and give nothing; logs and metrics are skipped and counted', () => {
  const r = reader();
  assert.deepEqual(r.ingestLines(fixtureLines('file-exporter-shipped.jsonl')), []);
  assert.deepEqual(r.skipped, { ...NO_SKIPS, emptySpans: 4, logLines: 6, metricLines: 2 });
});

test('the fixed file exporter\'s span lines give the same records as the OTLP export', () => {
  const r = reader();
  assert.deepEqual(r.ingestLines(fixtureLines('file-exporter-fixed.jsonl')), [ROUND_1, ROUND_2]);
  assert.deepEqual(r.skipped, { ...NO_SKIPS, logLines: 6, metricLines: 2 });
});

test('file lines one at a time: a chat span after an invoke_agent line (here without usage) is still tied to the session', () => {
  const lines = fixtureLines('file-exporter-fixed.jsonl').filter((l) => l.includes('"parentSpanContext"') || l.includes('invoke_agent'));
  const noSession = (l: string) => l.replace(/"copilot_chat\.session_id":"[^"]*",?/, '').replace(/,}/, '}');
  const r = reader();
  const invoke = lines.find((l) => l.includes('"name":"invoke_agent'))!.replace(/"gen_ai\.usage\.[a-z_.]+":\d+,?/g, '').replace(/,}/, '}');
  assert.doesNotMatch(invoke, /gen_ai\.usage/);
  const chat = noSession(lines.find((l) => l.includes('"name":"chat gpt-4o"'))!);
  assert.doesNotMatch(chat, /copilot_chat\.session_id/);
  assert.deepEqual(r.ingestLines([invoke]), []);
  assert.deepEqual(r.ingestLines([chat]).map((x) => [x.id, x.sessionId]), [['response:resp-5a0f3e21-round1', SESSION]]);
});

test('the Copilot CLI\'s envelope (type: span) and its service name; its conversation id is its session', () => {
  const line = JSON.stringify({
    type: 'span', traceId: 'c1c1', spanId: 'd2d2', parentSpanId: 'e3e3', name: 'chat claude-sonnet-4', startTime: [1767225600, 0], endTime: [1767225602, 250000000],
    attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'claude-sonnet-4', 'gen_ai.conversation.id': 'cli-session-1', 'gen_ai.usage.input_tokens': 5000, 'gen_ai.usage.output_tokens': 200, 'gen_ai.usage.cache_read.input_tokens': 4000, 'gen_ai.usage.reasoning.output_tokens': 50 },
    resource: { attributes: { 'service.name': 'github-copilot' } },
  });
  assert.deepEqual(reader().ingestLines([line, '{"type":"metric","name":"gen_ai.client.token.usage"}']), [
    { id: 'c1c1:d2d2', source: 'copilot-cli-otel', sessionId: 'cli-session-1', model: 'claude-sonnet-4', inputTokens: 5000, outputTokens: 200, cachedInputTokens: 4000, cacheCreationInputTokens: 0, reasoningTokens: 50, at: '2026-01-01T00:00:02.250Z', measured: true },
  ]);
});

test('an OTLP export written as one line (a collector\'s file exporter) is read too', () => {
  const r = reader();
  const line = JSON.stringify(JSON.parse(fixture('otlp-traces.json')));
  assert.deepEqual(r.ingestLines([line, JSON.stringify({ resourceLogs: [] }), JSON.stringify({ resourceMetrics: [] })]), [ROUND_1, ROUND_2]);
  assert.deepEqual(r.skipped, { ...NO_SKIPS, logLines: 1, metricLines: 1 });
});

test('broken and foreign lines are counted, never thrown on', () => {
  const r = reader();
  assert.deepEqual(r.ingestLines(['', '   ', '{"traceId":', '[1,2]', '"text"', '{"hello":"world"}', '{"type":"span","name":"chat x"}', '{}']), []);
  assert.deepEqual(r.skipped, { ...NO_SKIPS, unparsable: 1, unknown: 4, emptySpans: 1 });
});
