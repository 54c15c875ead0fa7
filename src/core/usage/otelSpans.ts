/**
 * Model usage from Copilot's OpenTelemetry spans: one record per `chat` span (one LLM call), tied to
 * its agent session. The invoke_agent span's token totals are the sum of its loop's rounds
 * (toolCallingLoop.ts), so they are not counted when its chat spans were seen. A model another
 * extension provides (Alfred's own, the tests' scripted one) gets no chat span from Copilot at all
 * (extChatEndpoint.ts), but the usage it reports in a `usage` data part does reach the invoke_agent's
 * totals: an invoke_agent with usage and no chat span under it is one record of its own.
 *
 * Spans are exported as they end, so a loop's chat spans come before its invoke_agent (in the same
 * batch or an earlier one). Which invoke_agents had chat spans is remembered in memory only: after a
 * restart of the reader in the middle of a turn, that turn could be counted from its totals too.
 *
 * Accepts OTLP/JSON trace exports (what the otlp-http exporter POSTs) and the lines of the file
 * exporter. Today's Copilot Chat writes its spans to the file as `{}` (see otelLine.ts): those are
 * counted as skipped, and file mode has to rely on the log records (otelLogs.ts).
 */
import { BoundedMap } from './otelBounded';
import { ATTR, sourceOf, usageRecord } from './otelUsage';
import { OtelSignalReader, type OtelSignal } from './otelReader';
import { SpanSessions } from './otelSessions';
import type { ModelUsageRecord, UsageSource } from './types';
import { attributes, hrTimeToMs, isoTime, nanosToMs, resourceAttributes, text, type Attributes } from './otelValues';
import { isObject } from '../base/isObject';

export interface OtelReaderOptions {
  /** The source when the resource does not name the Copilot CLI (default `copilot-otel`). */
  source?: UsageSource;
  /** Spans remembered to find a chat span's invoke_agent ancestor (default 20,000). */
  maxSpans?: number;
  /** Traces remembered with their top-level session (default 5,000). */
  maxTraces?: number;
  /** The clock, for a span without an end time. */
  now?: () => Date;
}

/** What was read but gave no record, by reason. */
export interface OtelSpanSkips {
  /** `{}` lines: spans the shipped file exporter failed to serialise. */
  emptySpans: number;
  logLines: number;
  metricLines: number;
  unparsable: number;
  /** JSON that is no span, log or metric known here (or an export body that is not one). */
  unknown: number;
  /** Chat spans without token counts: failed or cancelled calls. */
  chatWithoutUsage: number;
}

interface SpanView {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  endMs: number | undefined;
  attrs: Attributes;
  source: UsageSource;
}

const CHAT = 'chat';
const INVOKE_AGENT = 'invoke_agent';

const SPANS: OtelSignal = { resources: 'resourceSpans', scopes: 'scopeSpans', items: 'spans', itemLine: 'span', exportLine: 'otlp-traces' };

export class OtelUsageReader extends OtelSignalReader<SpanView, keyof OtelSpanSkips> {
  readonly skipped: OtelSpanSkips = { emptySpans: 0, logLines: 0, metricLines: 0, unparsable: 0, unknown: 0, chatWithoutUsage: 0 };
  private readonly sessions: SpanSessions;
  /** Span ids that are the parent of a chat span seen. */
  private readonly chatParents: BoundedMap<string, true>;

  constructor(options: OtelReaderOptions = {}) {
    super(SPANS, { empty: 'emptySpans', log: 'logLines', 'otlp-logs': 'logLines', metric: 'metricLines', 'otlp-metrics': 'metricLines' },
      options.source ?? 'copilot-otel', options.now ?? (() => new Date()));
    this.sessions = new SpanSessions(options.maxSpans ?? 20_000, options.maxTraces ?? 5_000);
    this.chatParents = new BoundedMap(options.maxSpans ?? 20_000);
  }

  protected otlpView(s: Record<string, unknown>, source: UsageSource): SpanView | undefined {
    return otlpSpan(s, source);
  }

  protected fileView(s: Record<string, unknown>, fallback: UsageSource): SpanView | undefined {
    return fileSpan(s, fallback);
  }

  /**
   * The batch's chat spans as records. Every other span is learnt first, so an invoke_agent in the
   * same batch serves its chat spans whatever their order.
   */
  protected records(views: SpanView[]): ModelUsageRecord[] {
    const chats: SpanView[] = [];
    const agents: Array<{ view: SpanView; session: string | undefined }> = [];
    for (const v of views) {
      const op = operation(v);
      if (op === CHAT) {
        chats.push(v);
        if (v.parentSpanId) this.chatParents.set(v.parentSpanId, true);
        continue;
      }
      const session = op === INVOKE_AGENT ? text(v.attrs.get(ATTR.SESSION_ID)) ?? text(v.attrs.get(ATTR.CONVERSATION_ID)) : undefined;
      this.sessions.learn(v.traceId, v.spanId, v.parentSpanId, session);
      if (op === INVOKE_AGENT) agents.push({ view: v, session });
    }
    const out: ModelUsageRecord[] = [];
    for (const v of chats) {
      const record = usageRecord(v.attrs, {
        fallbackId: `${v.traceId}:${v.spanId}`,
        source: v.source,
        sessionId: this.sessionOf(v),
        at: isoTime(v.endMs, this.now),
        model: v.name.startsWith('chat ') ? text(v.name.slice(5)) : undefined,
      });
      if (record) out.push(record);
      else this.skipped.chatWithoutUsage++;
    }
    for (const { view: v, session } of agents) {
      if (this.chatParents.has(v.spanId)) continue;
      const record = usageRecord(v.attrs, {
        fallbackId: `agent:${v.traceId}:${v.spanId}`, source: v.source, sessionId: session ?? this.sessions.resolve(v.traceId, v.parentSpanId),
        at: isoTime(v.endMs, this.now), model: undefined,
      });
      // A loop that made no request, or whose model reported nothing, has totals of 0: nothing was measured.
      if (record && record.inputTokens + record.outputTokens > 0) out.push(record);
    }
    return out;
  }

  /**
   * Copilot Chat's chat spans name the session in `copilot_chat.session_id`. Their
   * `gen_ai.conversation.id` is the session only in newer builds: in 0.42 and in the BYOK providers
   * it is the request id, so alone it is not trusted (findings §3). The CLI's is taken as given.
   */
  private sessionOf(v: SpanView): string | undefined {
    const own = text(v.attrs.get(ATTR.SESSION_ID));
    if (own) return own;
    const cli = v.source === 'copilot-cli-otel' ? text(v.attrs.get(ATTR.CONVERSATION_ID)) : undefined;
    return cli ?? this.sessions.resolve(v.traceId, v.parentSpanId);
  }
}

function operation(v: SpanView): string | undefined {
  const op = text(v.attrs.get(ATTR.OPERATION));
  if (op) return op;
  // Copilot always sets the operation; a span without one is a chat span only by its name.
  return v.name.startsWith('chat ') ? CHAT : undefined;
}

/** An OTLP/JSON span (ids in hex, times in unix nanoseconds). */
function otlpSpan(s: Record<string, unknown>, source: UsageSource): SpanView | undefined {
  const traceId = text(s.traceId);
  const spanId = text(s.spanId);
  if (!traceId || !spanId) return undefined;
  return {
    traceId, spanId, parentSpanId: text(s.parentSpanId), name: typeof s.name === 'string' ? s.name : '',
    endMs: nanosToMs(s.endTimeUnixNano) ?? nanosToMs(s.startTimeUnixNano), attrs: attributes(s.attributes), source,
  };
}

/** A file exporter span line: the fix's readableSpanToJson shape, or the CLI's envelope. */
function fileSpan(s: Record<string, unknown>, fallback: UsageSource): SpanView | undefined {
  const traceId = text(s.traceId);
  const spanId = text(s.spanId);
  if (!traceId || !spanId) return undefined;
  const parent = isObject(s.parentSpanContext) ? text(s.parentSpanContext.spanId) : text(s.parentSpanId);
  return {
    traceId, spanId, parentSpanId: parent, name: typeof s.name === 'string' ? s.name : '',
    endMs: hrTimeToMs(s.endTime) ?? nanosToMs(s.endTimeUnixNano) ?? hrTimeToMs(s.startTime),
    attrs: attributes(s.attributes), source: sourceOf(resourceAttributes(s.resource), fallback),
  };
}
