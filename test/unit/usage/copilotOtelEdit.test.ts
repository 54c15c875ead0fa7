import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'jsonc-parser';
import { copilotOtelSettingsText } from '../../../src/core/usage/copilotOtelEdit';

const ENDPOINT = 'http://127.0.0.1:24318';

test('no settings file: the four settings, content capture off', () => {
  assert.deepEqual(parse(copilotOtelSettingsText(undefined, ENDPOINT)), {
    'github.copilot.chat.otel.enabled': true, 'github.copilot.chat.otel.exporterType': 'otlp-http',
    'github.copilot.chat.otel.otlpEndpoint': ENDPOINT, 'github.copilot.chat.otel.captureContent': false,
  });
});

test('comments and other settings are kept; an output file (which would win over the exporter) is removed; a second edit changes nothing', () => {
  const text = '{\n    // mine\n    "editor.fontSize": 14,\n    "github.copilot.chat.otel.outfile": "/tmp/x.jsonl",\n    "github.copilot.chat.otel.captureContent": true\n}\n';
  const out = copilotOtelSettingsText(text, ENDPOINT);
  assert.match(out, /\/\/ mine/);
  const value = parse(out) as Record<string, unknown>;
  assert.equal(value['editor.fontSize'], 14);
  assert.equal('github.copilot.chat.otel.outfile' in value, false);
  assert.equal(value['github.copilot.chat.otel.captureContent'], false);
  assert.equal(copilotOtelSettingsText(out, ENDPOINT), out);
});
