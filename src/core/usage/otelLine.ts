/**
 * What a line of an OTel JSON-lines file holds. Copilot Chat's file exporter appends spans, log
 * records and metrics to ONE file (three write streams on the same path, findings §2), with no type
 * field, so a line is recognised by its fields:
 * - `{}`: a span as Copilot Chat ships today (JSON.stringify of the SDK span throws on its circular
 *   processor state, and the exporter writes `{}` instead; microsoft/vscode#319993);
 * - a span in the fix's shape (microsoft/vscode#328441): `traceId`, `spanId`, `name`, `startTime`…;
 * - a log record: sdk-logs 0.212 `hrTime`/`spanContext`, 0.223 `_hrTime`/`_spanContext`, `_body`;
 * - metrics: one `ResourceMetrics` (`scopeMetrics`) per export;
 * - the Copilot CLI's envelope (third-party fixtures only, unverified): `type: "span" | "metric"`;
 * - a whole OTLP/JSON export a line (an OpenTelemetry Collector's file exporter).
 */
import { isObject } from '../base/isObject';

export type OtelLineKind = 'span' | 'log' | 'metric' | 'empty' | 'otlp-traces' | 'otlp-logs' | 'otlp-metrics' | 'unknown';

export function lineKind(v: Record<string, unknown>): OtelLineKind {
  if (v.resourceSpans !== undefined) return 'otlp-traces';
  if (v.resourceLogs !== undefined) return 'otlp-logs';
  if (v.resourceMetrics !== undefined) return 'otlp-metrics';
  if (v.type === 'span') return 'span';
  if (v.type === 'log') return 'log';
  if (v.type === 'metric' || v.scopeMetrics !== undefined) return 'metric';
  if ('hrTime' in v || '_hrTime' in v || '_body' in v) return 'log';
  if (typeof v.traceId === 'string' && typeof v.spanId === 'string' && typeof v.name === 'string') return 'span';
  // Any own key makes it unknown; none is the shipped exporter's span (checked without listing keys).
  for (const _ in v) return 'unknown';
  return 'empty';
}

/** Each line parsed and classified; blank lines are passed over, unparsable ones reported as such. */
export function* otelLines(lines: Iterable<string>): Generator<{ kind: OtelLineKind | 'unparsable'; value: Record<string, unknown> }> {
  for (const line of lines) {
    if (!line.trim()) continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      yield { kind: 'unparsable', value: {} };
      continue;
    }
    yield isObject(v) ? { kind: lineKind(v), value: v } : { kind: 'unknown', value: {} };
  }
}
