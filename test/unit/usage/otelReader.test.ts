import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OtelLogUsageReader } from '../../../src/core/usage/otelLogs';
import { OtelUsageReader } from '../../../src/core/usage/otelSpans';

// One line of every kind a file exporter can hold, and where each of the two readers counts it.
const LINES = {
  span: JSON.stringify({ traceId: 't', spanId: 's', name: 'execute_tool', attributes: {} }),
  log: JSON.stringify({ hrTime: [1, 0], _body: 'hello', attributes: {} }),
  metric: JSON.stringify({ scopeMetrics: [] }),
  empty: '{}',
  otlpTraces: JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 't', spanId: 's2', name: 'x' }, 7] }] }] }),
  otlpLogs: JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: { stringValue: 'hello' } }, 'no record'] }] }] }),
  otlpMetrics: JSON.stringify({ resourceMetrics: [] }),
  unknown: JSON.stringify({ what: 1 }),
  notAnObject: '[1, 2]',
  unparsable: '{not json',
  blank: '   ',
};

test('the span reader: its own lines are read (a non-object item is unknown); every other line is counted by kind', () => {
  const r = new OtelUsageReader();
  assert.deepEqual(r.ingestLines(Object.values(LINES)), []);
  assert.deepEqual(r.skipped, { emptySpans: 1, logLines: 2, metricLines: 2, unparsable: 1, unknown: 3, chatWithoutUsage: 0 });
});

test('the log reader: its own lines are read (a non-object record is unknown); every other line is counted by kind', () => {
  const r = new OtelLogUsageReader();
  assert.deepEqual(r.ingestLines(Object.values(LINES)), []);
  // The two log records are events of no interest; spans, `{}` and trace exports all count as span lines.
  assert.deepEqual(r.skipped, { otherEvents: 2, inferenceWithoutUsage: 0, spanLines: 3, metricLines: 2, unparsable: 1, unknown: 3 });
});

test('an export body of the other signal, or not JSON, gives no record and is counted once', () => {
  const spans = new OtelUsageReader();
  assert.deepEqual(spans.ingest(LINES.otlpLogs), []);
  assert.deepEqual(spans.ingest('{not json'), []);
  assert.deepEqual(spans.ingest(Buffer.from(LINES.otlpTraces)), []);
  assert.deepEqual(spans.skipped, { emptySpans: 0, logLines: 0, metricLines: 0, unparsable: 1, unknown: 2, chatWithoutUsage: 0 });
  const logs = new OtelLogUsageReader();
  assert.deepEqual(logs.ingest(JSON.parse(LINES.otlpTraces)), []);
  assert.deepEqual(logs.ingest(LINES.otlpLogs), []);
  assert.deepEqual(logs.skipped, { otherEvents: 1, inferenceWithoutUsage: 0, spanLines: 0, metricLines: 0, unparsable: 0, unknown: 2 });
});
