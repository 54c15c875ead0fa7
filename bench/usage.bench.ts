/**
 * Reading model usage from Copilot's OTel trace exports (OtelUsageReader.ingest, as the OTLP receiver
 * hands it each POSTed body): 100,000 chat spans in OTLP/JSON bodies of 500 spans (the
 * BatchSpanProcessor's batch size is 512), with the attributes Copilot Chat sets on a chat span
 * (content capture off), 25 rounds a trace, half of them without copilot_chat.session_id (as the
 * BYOK providers write them), so the session lookup runs too. Baseline, measured in the same run:
 * JSON.parse of the same bodies, which the reader cannot avoid. Target: at most twice the baseline.
 */
import { OtelUsageReader } from '../src/core/usage/otelSpans';
import { finish, median, nowMs, verdict } from './util';

const SPANS = 100_000;
const BATCH = 500;
const ROUNDS_PER_TRACE = 25;
const RUNS = 7;
const TARGET_RATIO = 2;

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');
const str = (key: string, v: string) => ({ key, value: { stringValue: v } });
const int = (key: string, v: number) => ({ key, value: { intValue: v } });

function chatSpan(i: number): object {
  const trace = Math.floor(i / ROUNDS_PER_TRACE);
  const session = `session-${hex(trace % 97, 8)}`;
  const start = 1_767_225_600_000 + i * 1500;
  return {
    traceId: hex(trace, 32), spanId: hex(i + 1, 16), parentSpanId: hex(trace + 1, 16), name: 'chat gpt-4o', kind: 3,
    startTimeUnixNano: `${start}000000`, endTimeUnixNano: `${start + 1200}123456`,
    attributes: [
      str('gen_ai.operation.name', 'chat'), str('gen_ai.provider.name', 'github'), str('gen_ai.request.model', 'gpt-4o'),
      str('gen_ai.conversation.id', `req-${hex(i, 12)}`), int('gen_ai.request.max_tokens', 4096),
      int('copilot_chat.request.max_prompt_tokens', 63999), str('server.address', 'api.githubcopilot.com'),
      ...(i % 2 === 0 ? [str('copilot_chat.session_id', session)] : []), str('copilot_chat.chat_session_id', `chat-${session}`),
      int('gen_ai.usage.input_tokens', 10_000 + (i % 5000)), int('gen_ai.usage.output_tokens', 100 + (i % 700)),
      str('gen_ai.response.model', 'gpt-4o-2024-11-20'), str('gen_ai.response.id', `resp-${hex(i, 12)}`),
      { key: 'gen_ai.response.finish_reasons', value: { arrayValue: { values: [{ stringValue: 'stop' }] } } },
      int('gen_ai.usage.cache_read.input_tokens', 8192), int('copilot_chat.time_to_first_token', 400 + (i % 300)),
    ],
    status: { code: 0 }, events: [], links: [],
  };
}

function bodies(): string[] {
  const out: string[] = [];
  for (let b = 0; b < SPANS / BATCH; b++) {
    const spans = Array.from({ length: BATCH }, (_, k) => chatSpan(b * BATCH + k));
    out.push(JSON.stringify({
      resourceSpans: [{
        resource: { attributes: [str('service.name', 'copilot-chat'), str('service.version', '0.42.0'), str('session.id', 'window')], droppedAttributesCount: 0 },
        scopeSpans: [{ scope: { name: 'copilot-chat', version: '0.42.0' }, spans }],
      }],
    }));
  }
  return out;
}

function ingestAll(texts: readonly string[]): { ms: number; records: number; tokens: number } {
  const reader = new OtelUsageReader();
  let records = 0;
  let tokens = 0;
  const t0 = nowMs();
  for (const text of texts) {
    for (const r of reader.ingest(text)) {
      records++;
      tokens += r.inputTokens + r.outputTokens;
    }
  }
  return { ms: nowMs() - t0, records, tokens };
}

function parseAll(texts: readonly string[]): number {
  let n = 0;
  const t0 = nowMs();
  for (const text of texts) n += (JSON.parse(text) as { resourceSpans: unknown[] }).resourceSpans.length;
  if (n !== texts.length) throw new Error('bad bodies');
  return nowMs() - t0;
}

function main(): void {
  const texts = bodies();
  const mb = texts.reduce((n, t) => n + t.length, 0) / 1048576;
  ingestAll(texts); // warm-up
  parseAll(texts);
  const runs: number[] = [];
  const baselines: number[] = [];
  let last = { ms: 0, records: 0, tokens: 0 };
  for (let i = 0; i < RUNS; i++) {
    baselines.push(parseAll(texts));
    last = ingestAll(texts);
    runs.push(last.ms);
  }
  if (last.records !== SPANS) throw new Error(`expected ${SPANS} records, got ${last.records}`);
  const ms = median(runs);
  const baseline = median(baselines);
  const ratio = ms / baseline;
  console.log(`OtelUsageReader.ingest ${SPANS.toLocaleString('en')} chat spans (${texts.length} bodies of ${BATCH}, ${mb.toFixed(1)} MB): median ${ms.toFixed(1)} ms (${(ms * 1000 / SPANS).toFixed(2)} µs a span) | baseline JSON.parse ${baseline.toFixed(1)} ms | ratio ${ratio.toFixed(2)}× | ${last.tokens.toLocaleString('en')} tokens read`);
  verdict(`OtelUsageReader ${SPANS.toLocaleString('en')} chat spans`, `median ${ms.toFixed(1)} ms | ratio ${ratio.toFixed(2)}× JSON.parse | target ≤ ${TARGET_RATIO}×`, ratio <= TARGET_RATIO);
  finish();
}

main();
