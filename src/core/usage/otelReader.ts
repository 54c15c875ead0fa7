/**
 * The reading skeleton the OTel span and log readers share: an OTLP/JSON export (what the otlp-http
 * exporter POSTs) or the lines of a file exporter, walked down to its items (spans or log records),
 * each turned into a view by the reader; what gives no view is counted in `skipped`, by reason.
 * A reader supplies only what is its own: the OTLP names of its signal, how one item reads, and how
 * a batch of views becomes usage records.
 */
import { otelLines, type OtelLineKind } from './otelLine';
import type { ModelUsageRecord, UsageSource } from './types';
import { exportResources, resourceAttributes } from './otelValues';
import { sourceOf } from './otelUsage';
import { isObject } from '../base/isObject';

/** The names of one signal in OTLP/JSON and in the file exporter's lines. */
export interface OtelSignal {
  resources: 'resourceSpans' | 'resourceLogs';
  scopes: 'scopeSpans' | 'scopeLogs';
  items: 'spans' | 'logRecords';
  /** The file line kind holding one item of the signal. */
  itemLine: 'span' | 'log';
  /** The file line kind holding a whole export of the signal. */
  exportLine: 'otlp-traces' | 'otlp-logs';
}

/** Skip reasons every reader has: input that is not JSON, and JSON of no shape known here. */
type CommonSkip = 'unparsable' | 'unknown';

export abstract class OtelSignalReader<View, Skip extends string> {
  abstract readonly skipped: Record<Skip | CommonSkip, number>;

  /**
   * @param otherLines where each file line kind of another signal is counted; a kind not listed
   *   (and a line of the signal's own kind that gives no view) counts as `unknown`.
   */
  protected constructor(
    private readonly signal: OtelSignal,
    private readonly otherLines: Partial<Record<OtelLineKind, Skip>>,
    /** The source when the resource does not name the Copilot CLI. */
    protected readonly source: UsageSource,
    /** The clock, for an item without a time. */
    protected readonly now: () => Date,
  ) {}

  /** An OTLP/JSON export request of the signal, parsed or as JSON text. */
  ingest(body: unknown): ModelUsageRecord[] {
    const resources = exportResources(body, this.signal.resources);
    if (typeof resources === 'string') {
      this.skipped[resources]++;
      return [];
    }
    const views: View[] = [];
    this.collectOtlp(resources, views);
    return this.records(views);
  }

  /** Lines of a file exporter's output: the signal's items become records, everything else is counted and skipped. */
  ingestLines(lines: Iterable<string>): ModelUsageRecord[] {
    const views: View[] = [];
    for (const { kind, value } of otelLines(lines)) {
      if (kind === this.signal.itemLine) {
        const view = this.fileView(value, this.source);
        if (view) views.push(view);
        else this.skipped.unknown++;
      } else if (kind === this.signal.exportLine) {
        const resources = value[this.signal.resources];
        if (Array.isArray(resources)) this.collectOtlp(resources, views);
      } else if (kind === 'unparsable') {
        this.skipped.unparsable++;
      } else {
        this.skipped[this.otherLines[kind] ?? 'unknown']++;
      }
    }
    return this.records(views);
  }

  private collectOtlp(resources: unknown[], views: View[]): void {
    for (const resource of resources) {
      const scopes = isObject(resource) ? resource[this.signal.scopes] : undefined;
      if (!isObject(resource) || !Array.isArray(scopes)) continue;
      const source = sourceOf(resourceAttributes(resource.resource), this.source);
      for (const scope of scopes) {
        const items = isObject(scope) ? scope[this.signal.items] : undefined;
        if (!Array.isArray(items)) continue;
        for (const item of items) {
          const view = isObject(item) ? this.otlpView(item, source) : undefined;
          if (view) views.push(view);
          else this.skipped.unknown++;
        }
      }
    }
  }

  /** One OTLP/JSON item, its resource's source given; undefined when it is not one. */
  protected abstract otlpView(item: Record<string, unknown>, source: UsageSource): View | undefined;
  /** One file exporter line of the signal's own kind; undefined when it is not one. */
  protected abstract fileView(line: Record<string, unknown>, fallback: UsageSource): View | undefined;
  /** A batch's views as records (a reader may learn from every view first, whatever their order). */
  protected abstract records(views: View[]): ModelUsageRecord[];
}
