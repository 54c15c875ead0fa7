/**
 * Model usage from Copilot Chat's OpenTelemetry log records: the `gen_ai.client.inference.operation.details`
 * event (body "GenAI inference: <model>") that every successful LLM call emits with its input and
 * output tokens (genAiEvents.ts). It is the only usage the file exporter writes today (its spans
 * are `{}`). It carries no cache or reasoning counts and no session: the session is joined through
 * the trace from the `copilot_chat.session.start` event, which each top-level invoke_agent emits
 * (attribute `session.id` = the agent session; the RESOURCE's `session.id` is the window's, not it).
 * Subagents share their parent's trace, hence its session.
 *
 * Shapes: OTLP/JSON export bodies, and the file exporter's lines — JSON.stringify of the SDK's
 * LogRecord: sdk-logs 0.212 (pinned by Copilot Chat 0.42) `hrTime`, `spanContext`, `_body`;
 * 0.223 `_hrTime`, `_spanContext`, `_body` (both recorded in test/fixtures/usage).
 */
import { BoundedMap } from './otelBounded';
import { OtelSignalReader, type OtelSignal } from './otelReader';
import { ATTR, sourceOf, usageRecord } from './otelUsage';
import type { ModelUsageRecord, UsageSource } from './types';
import { anyValue, attributes, hrTimeToMs, isoTime, nanosToMs, resourceAttributes, text, type Attributes } from './otelValues';
import { isObject } from '../base/isObject';

export interface OtelLogReaderOptions {
  /** The source when the resource does not name the Copilot CLI (default `copilot-otel`). */
  source?: UsageSource;
  /** Traces remembered with their session (default 5,000). */
  maxTraces?: number;
  now?: () => Date;
}

export interface OtelLogSkips {
  /** Log records of other events: tool calls, edits, agent turns (whose tokens repeat their calls' and must not count). */
  otherEvents: number;
  /** Inference events without token counts: failed calls. */
  inferenceWithoutUsage: number;
  spanLines: number;
  metricLines: number;
  unparsable: number;
  unknown: number;
}

interface LogView {
  traceId: string | undefined;
  spanId: string | undefined;
  /** The time as a key: unix nanoseconds, digits only. */
  timeKey: string;
  timeMs: number | undefined;
  body: string;
  event: string | undefined;
  attrs: Attributes;
  source: UsageSource;
}

const INFERENCE_EVENT = 'gen_ai.client.inference.operation.details';
const SESSION_START_EVENT = 'copilot_chat.session.start';
const INFERENCE_BODY = 'GenAI inference: ';

const LOGS: OtelSignal = { resources: 'resourceLogs', scopes: 'scopeLogs', items: 'logRecords', itemLine: 'log', exportLine: 'otlp-logs' };

export class OtelLogUsageReader extends OtelSignalReader<LogView, keyof OtelLogSkips> {
  readonly skipped: OtelLogSkips = { otherEvents: 0, inferenceWithoutUsage: 0, spanLines: 0, metricLines: 0, unparsable: 0, unknown: 0 };
  private readonly traces: BoundedMap<string, string>;

  constructor(options: OtelLogReaderOptions = {}) {
    super(LOGS, { span: 'spanLines', empty: 'spanLines', 'otlp-traces': 'spanLines', metric: 'metricLines', 'otlp-metrics': 'metricLines' },
      options.source ?? 'copilot-otel', options.now ?? (() => new Date()));
    this.traces = new BoundedMap(options.maxTraces ?? 5_000);
  }

  protected otlpView(r: Record<string, unknown>, source: UsageSource): LogView | undefined {
    return otlpLog(r, source);
  }

  protected fileView(r: Record<string, unknown>, fallback: UsageSource): LogView | undefined {
    return fileLog(r, fallback);
  }

  /** Session starts first, so an inference event in the same batch finds its session whatever the order. */
  protected records(views: LogView[]): ModelUsageRecord[] {
    for (const v of views) {
      const session = v.event === SESSION_START_EVENT ? text(v.attrs.get('session.id')) : undefined;
      if (session && v.traceId) this.traces.set(v.traceId, session);
    }
    const out: ModelUsageRecord[] = [];
    for (const v of views) {
      if (v.event !== INFERENCE_EVENT && !(v.event === undefined && v.body.startsWith(INFERENCE_BODY))) {
        if (v.event !== SESSION_START_EVENT) this.skipped.otherEvents++;
        continue;
      }
      const record = usageRecord(v.attrs, {
        fallbackId: `${v.traceId ?? '-'}:${v.spanId ?? '-'}:${v.timeKey}`,
        source: v.source,
        sessionId: text(v.attrs.get(ATTR.SESSION_ID)) ?? (v.traceId ? this.traces.get(v.traceId) : undefined),
        at: isoTime(v.timeMs, this.now),
        model: v.body.startsWith(INFERENCE_BODY) ? text(v.body.slice(INFERENCE_BODY.length)) : undefined,
      });
      if (record) out.push(record);
      else this.skipped.inferenceWithoutUsage++;
    }
    return out;
  }
}

function eventOf(attrs: Attributes, eventName: unknown): string | undefined {
  return text(attrs.get(ATTR.EVENT_NAME)) ?? text(eventName);
}

/** An OTLP/JSON log record (ids in hex, times in unix nanoseconds, the body an AnyValue). */
function otlpLog(r: Record<string, unknown>, source: UsageSource): LogView | undefined {
  const attrs = attributes(r.attributes);
  const time = typeof r.timeUnixNano === 'string' && r.timeUnixNano !== '0' ? r.timeUnixNano : r.observedTimeUnixNano;
  const body = anyValue(r.body);
  return {
    traceId: text(r.traceId), spanId: text(r.spanId), timeKey: nanosKey(time), timeMs: nanosToMs(time),
    body: typeof body === 'string' ? body : '', event: eventOf(attrs, r.eventName), attrs, source,
  };
}

/** A file exporter log line: the SDK LogRecord of sdk-logs 0.212 or 0.223. */
function fileLog(r: Record<string, unknown>, fallback: UsageSource): LogView | undefined {
  const context = r.spanContext ?? r._spanContext;
  const hr = r.hrTime ?? r._hrTime ?? r.hrTimeObserved ?? r._hrTimeObserved;
  const body = r._body ?? r.body;
  const attrs = attributes(r.attributes ?? r._attributes);
  return {
    traceId: isObject(context) ? text(context.traceId) : undefined,
    spanId: isObject(context) ? text(context.spanId) : undefined,
    timeKey: hrKey(hr), timeMs: hrTimeToMs(hr), body: typeof body === 'string' ? body : '',
    event: eventOf(attrs, r.eventName ?? r._eventName), attrs, source: sourceOf(resourceAttributes(r.resource), fallback),
  };
}

function nanosKey(v: unknown): string {
  if (typeof v === 'string' && /^\d+$/.test(v)) return v;
  return typeof v === 'number' && Number.isFinite(v) ? String(Math.floor(v)) : '0';
}

function hrKey(v: unknown): string {
  if (!Array.isArray(v) || typeof v[0] !== 'number' || typeof v[1] !== 'number') return '0';
  return `${v[0]}${String(v[1]).padStart(9, '0')}`;
}
