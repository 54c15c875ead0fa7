/**
 * What Copilot Chat 0.67 in this project's code-server (VS Code 1.139) really exported for one agent
 * turn on the scripted model reporting 12,000 input (10,000 cached) and 400 output tokens, recorded by
 * test/fixtures/usage/record/recordCopilot.ts: the OTLP/JSON bodies its otlp-http exporter POSTed, and
 * the lines its file exporter wrote.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { OtelLogUsageReader } from '../../../src/core/usage/otelLogs';
import { OtelUsageReader } from '../../../src/core/usage/otelSpans';

const FIXTURES = path.resolve(import.meta.dirname, '..', '..', 'fixtures', 'usage');
const read = (name: string): string => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

test('the OTLP export: the turn\'s invoke_agent is the one record, with the session Copilot\'s hooks name and every token count', () => {
  const reader = new OtelUsageReader();
  const bodies = JSON.parse(read('copilot-1.139-otlp-traces.json')) as unknown[];
  assert.deepEqual(bodies.flatMap((b) => reader.ingest(b)), [{
    id: 'agent:d830a45a587821ee01628102d446271a:820d6dc7774975b3', source: 'copilot-otel', sessionId: 'fc8a8361-b867-4028-bb45-e7556804f12a',
    model: 'scripted-a', inputTokens: 12_000, outputTokens: 400, cachedInputTokens: 10_000, cacheCreationInputTokens: 0, reasoningTokens: 0,
    at: '2026-12-01T18:59:27.455Z', measured: true,
  }]);
  assert.deepEqual(reader.skipped, { emptySpans: 0, logLines: 0, metricLines: 0, unparsable: 0, unknown: 0, chatWithoutUsage: 0 });
});

test('the file exporter of the same version: spans written as {}, and no log record with a model request\'s usage, so a file gives nothing to charge', () => {
  const lines = read('copilot-1.139-file-exporter.jsonl').split('\n');
  const spans = new OtelUsageReader();
  assert.deepEqual(spans.ingestLines(lines), []);
  assert.deepEqual(spans.skipped, { emptySpans: 2, logLines: 3, metricLines: 3, unparsable: 0, unknown: 0, chatWithoutUsage: 0 });
  const logs = new OtelLogUsageReader();
  assert.deepEqual(logs.ingestLines(lines), []);
  // The tool call and the agent turn (whose tokens are the turn's total, with no cache count and no model).
  assert.deepEqual(logs.skipped, { otherEvents: 2, inferenceWithoutUsage: 0, spanLines: 2, metricLines: 3, unparsable: 0, unknown: 0 });
});
