/**
 * Decoding of OpenTelemetry values in the JSON shapes Copilot's exporters write: OTLP/JSON
 * (`[{key, value: {stringValue|intValue|…}}]`, int64 possibly as a string, times as nanosecond
 * strings) and the file exporter's SDK objects (`{k: v}` attributes, `[[k, v]]` raw resource
 * attributes, HrTime `[seconds, nanos]`). Everything is checked: the input is another program's
 * output and must never throw.
 */
import { isObject } from '../base/isObject';

export type Attributes = ReadonlyMap<string, unknown>;

const EMPTY: Attributes = new Map();

/** An OTLP AnyValue as a plain value (arrays kept, key-value lists and bytes dropped: never needed here). */
export function anyValue(v: unknown): unknown {
  if (!isObject(v)) return undefined;
  if ('stringValue' in v) return v.stringValue;
  if ('intValue' in v) return v.intValue;
  if ('doubleValue' in v) return v.doubleValue;
  if ('boolValue' in v) return v.boolValue;
  if (isObject(v.arrayValue) && Array.isArray(v.arrayValue.values)) return v.arrayValue.values.map(anyValue);
  return undefined;
}

/** OTLP attributes (`[{key, value}]`), the SDK's `{k: v}`, or `[[k, v]]` (a resource's `_rawAttributes`). */
export function attributes(v: unknown): Attributes {
  if (Array.isArray(v)) {
    const out = new Map<string, unknown>();
    for (const kv of v) {
      if (Array.isArray(kv)) {
        if (typeof kv[0] === 'string') out.set(kv[0], kv[1]);
      } else if (isObject(kv) && typeof kv.key === 'string') {
        out.set(kv.key, anyValue(kv.value));
      }
    }
    return out;
  }
  return isObject(v) ? new Map(Object.entries(v)) : EMPTY;
}

/** A resource's attributes, whichever way it was serialised (OTLP, the fixed span exporter, sdk-logs' raw pairs). */
export function resourceAttributes(resource: unknown): Attributes {
  if (!isObject(resource)) return EMPTY;
  if (resource.attributes !== undefined) return attributes(resource.attributes);
  if (resource._rawAttributes !== undefined) return attributes(resource._rawAttributes);
  return attributes(resource._memoizedAttributes);
}

export function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** A token count: a non-negative finite number, or the decimal string OTLP uses for int64. */
export function count(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? Math.round(v) : undefined;
  if (typeof v === 'string' && /^\d{1,15}$/.test(v)) return Number(v);
  return undefined;
}

/** Milliseconds from OTLP's unix nanoseconds (a decimal string, or a number that has lost its last digits). */
export function nanosToMs(v: unknown): number | undefined {
  if (typeof v === 'string' && /^\d{1,25}$/.test(v)) {
    // Cut the string rather than parse it: 19-digit nanoseconds do not fit a double exactly.
    const ms = v.length > 6 ? Number(v.slice(0, -6)) : 0;
    return ms > 0 ? ms : undefined;
  }
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) return Math.floor(v / 1e6);
  return undefined;
}

/** Milliseconds from an SDK HrTime `[seconds, nanoseconds]`. */
export function hrTimeToMs(v: unknown): number | undefined {
  if (!Array.isArray(v) || typeof v[0] !== 'number' || typeof v[1] !== 'number') return undefined;
  const ms = v[0] * 1000 + Math.floor(v[1] / 1e6);
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

/** ISO time of `ms`, or of now when the report gave none (a record must say when). */
export function isoTime(ms: number | undefined, now: () => Date): string {
  if (ms !== undefined) {
    const d = new Date(ms);
    if (!Number.isNaN(d.getTime())) return d.toISOString();
  }
  return now().toISOString();
}

/** JSON text parsed, or the value itself; undefined when the text is not JSON. */
/**
 * The resource list of an OTLP/JSON export (`resourceSpans`, `resourceLogs`), or why there is none:
 * `unparsable` (not JSON) or `unknown` (JSON of another shape). Both readers count these apart.
 */
export function exportResources(body: unknown, key: 'resourceSpans' | 'resourceLogs'): unknown[] | 'unparsable' | 'unknown' {
  const parsed = parsedBody(body);
  if (parsed === undefined && body !== undefined) return 'unparsable';
  const list = isObject(parsed) ? parsed[key] : undefined;
  return Array.isArray(list) ? list : 'unknown';
}

export function parsedBody(body: unknown): unknown {
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) return body;
  try {
    return JSON.parse(body.toString());
  } catch {
    return undefined;
  }
}
