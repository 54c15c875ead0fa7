import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { OtelUsageReader } from '../../../src/core/usage/otelSpans';
import { startOtlpReceiver, type OtlpReceiver, type OtlpReceiverOptions, type OtlpSignal } from '../../../src/core/usage/otlpReceiver';

const FIXTURES = path.resolve(import.meta.dirname, '..', '..', 'fixtures', 'usage');
const TRACES = fs.readFileSync(path.join(FIXTURES, 'otlp-traces.json'), 'utf8');
const LOGS = fs.readFileSync(path.join(FIXTURES, 'otlp-logs.json'), 'utf8');
const JSON_TYPE = { 'content-type': 'application/json' };

const open: OtlpReceiver[] = [];
after(() => Promise.all(open.map((r) => r.close())));

async function receiver(options: Partial<OtlpReceiverOptions> = {}): Promise<{ rx: OtlpReceiver; got: [OtlpSignal, unknown][] }> {
  const got: [OtlpSignal, unknown][] = [];
  const rx = await startOtlpReceiver({ onExport: (signal, body) => { got.push([signal, body]); }, ...options });
  open.push(rx);
  return { rx, got };
}

async function post(url: string, body: string | Buffer, headers: Record<string, string> = JSON_TYPE): Promise<{ status: number; body: unknown; type: string | null }> {
  const res = await fetch(url, { method: 'POST', headers, body });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), type: res.headers.get('content-type') };
}

/** A raw request, for what fetch will not send (another Host header). */
function rawPost(port: number, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/v1/traces', method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c) => (text += c)).on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('listens on 127.0.0.1 at a free port; a trace export is handed over parsed and answered as OTLP says', async () => {
  const { rx, got } = await receiver();
  assert.match(rx.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.ok(rx.port > 0);
  assert.deepEqual(await post(`${rx.url}/v1/traces`, TRACES), { status: 200, body: { partialSuccess: {} }, type: 'application/json' });
  assert.deepEqual(got, [['traces', JSON.parse(TRACES)]]);
  assert.deepEqual(new OtelUsageReader().ingest(got[0]![1]).map((r) => [r.id, r.inputTokens, r.outputTokens]),
    [['response:resp-5a0f3e21-round1', 12450, 310], ['response:resp-9c44b7d0-round2', 13020, 655]]);
});

test('logs are handed over; metrics are acknowledged unread unless asked for', async () => {
  const { rx, got } = await receiver();
  assert.equal((await post(`${rx.url}/v1/logs`, LOGS, { 'content-type': 'application/json; charset=utf-8' })).status, 200);
  assert.equal((await post(`${rx.url}/v1/metrics`, 'not even json')).status, 200);
  assert.deepEqual(got.map(([s]) => s), ['logs']);
  const asked = await receiver({ signals: ['metrics'] });
  assert.equal((await post(`${asked.rx.url}/v1/metrics`, '{"resourceMetrics":[]}')).status, 200);
  assert.equal((await post(`${asked.rx.url}/v1/traces`, TRACES)).status, 200);
  assert.deepEqual(asked.got, [['metrics', { resourceMetrics: [] }]]);
});

test('protobuf is refused with 415 and says how to switch the exporter to JSON', async () => {
  const { rx, got } = await receiver();
  const res = await post(`${rx.url}/v1/traces`, Buffer.from([0x0a, 0x02, 0x08, 0x01]), { 'content-type': 'application/x-protobuf' });
  assert.deepEqual(res, { status: 415, type: 'application/json', body: {
    code: 3, message: "Alfred's OTLP receiver accepts OTLP/HTTP JSON only (content-type: application/json), not protobuf: set the exporter's protocol to http/json (OTEL_EXPORTER_OTLP_PROTOCOL=http/json).",
  } });
  assert.equal((await post(`${rx.url}/v1/traces`, TRACES, { 'content-type': 'text/plain' })).status, 415);
  assert.deepEqual(got, []);
});

test('a body that is not JSON is a 400', async () => {
  const { rx, got } = await receiver();
  assert.deepEqual(await post(`${rx.url}/v1/traces`, '{"resourceSpans": ['), { status: 400, type: 'application/json', body: { code: 3, message: 'the body is not JSON' } });
  assert.deepEqual(got, []);
});

test('bodies are bounded: a declared length, a streamed body and an inflated one', async () => {
  const { rx, got } = await receiver({ maxBodyBytes: 1000 });
  const big = JSON.stringify({ resourceSpans: [], pad: 'x'.repeat(2000) });
  assert.deepEqual(await post(`${rx.url}/v1/traces`, big), { status: 413, type: 'application/json', body: { code: 3, message: 'the body exceeds 1000 bytes' } });
  // Chunked: no content-length, the limit is met while reading.
  const stream = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode(big)); c.close(); } });
  const res = await fetch(`${rx.url}/v1/traces`, { method: 'POST', headers: JSON_TYPE, body: stream, duplex: 'half' } as RequestInit);
  assert.deepEqual([res.status, await res.json()], [413, { code: 3, message: 'the body exceeds 1000 bytes' }]);
  const bomb = gzipSync(big);
  assert.ok(bomb.length < 1000);
  assert.deepEqual(await post(`${rx.url}/v1/traces`, bomb, { ...JSON_TYPE, 'content-encoding': 'gzip' }),
    { status: 413, type: 'application/json', body: { code: 3, message: 'the body exceeds 1000 bytes once inflated' } });
  assert.deepEqual(got, []);
  // And the receiver still serves.
  assert.equal((await post(`${rx.url}/v1/traces`, '{"resourceSpans":[]}')).status, 200);
});

test('gzip bodies are inflated; other encodings are refused', async () => {
  const { rx, got } = await receiver();
  assert.equal((await post(`${rx.url}/v1/traces`, gzipSync(TRACES), { ...JSON_TYPE, 'content-encoding': 'gzip' })).status, 200);
  assert.deepEqual(got, [['traces', JSON.parse(TRACES)]]);
  assert.equal((await post(`${rx.url}/v1/traces`, Buffer.from('garbage'), { ...JSON_TYPE, 'content-encoding': 'gzip' })).status, 400);
  assert.equal((await post(`${rx.url}/v1/traces`, TRACES, { ...JSON_TYPE, 'content-encoding': 'br' })).status, 415);
});

test('unknown paths are 404, other methods 405', async () => {
  const { rx } = await receiver();
  assert.equal((await post(`${rx.url}/v1/profiles`, '{}')).status, 404);
  assert.equal((await post(`${rx.url}/`, '{}')).status, 404);
  const get = await fetch(`${rx.url}/v1/traces`);
  assert.deepEqual([get.status, await get.json()], [405, { code: 3, message: 'OTLP exports are POSTed' }]);
});

test('a Host that is not a loopback name is refused (DNS rebinding)', async () => {
  const { rx, got } = await receiver();
  const body = '{"resourceSpans":[]}';
  const denied = await rawPost(rx.port, { host: `evil.example:${rx.port}`, 'content-type': 'application/json' }, body);
  assert.deepEqual([denied.status, JSON.parse(denied.body)], [403, { code: 3, message: `Host "evil.example:${rx.port}" is not a loopback name` }]);
  assert.equal((await rawPost(rx.port, { host: `localhost:${rx.port}`, 'content-type': 'application/json' }, body)).status, 200);
  assert.deepEqual(got, [['traces', { resourceSpans: [] }]]);
});

test('a handler that fails makes a 500 and is reported', async () => {
  const errors: unknown[] = [];
  const rx = await startOtlpReceiver({ onExport: async () => { throw new Error('ledger locked'); }, onError: (e) => errors.push(e) });
  open.push(rx);
  assert.deepEqual(await post(`${rx.url}/v1/traces`, TRACES), { status: 500, type: 'application/json', body: { code: 13, message: 'the export could not be processed' } });
  assert.deepEqual(errors.map((e) => (e as Error).message), ['ledger locked']);
});

test('close() frees the port, kept-alive connections included', async () => {
  const rx = await startOtlpReceiver({ onExport: () => undefined });
  assert.equal((await post(`${rx.url}/v1/traces`, '{}')).status, 200);
  await rx.close();
  await assert.rejects(fetch(`${rx.url}/v1/traces`, { method: 'POST', headers: JSON_TYPE, body: '{}' }));
});
