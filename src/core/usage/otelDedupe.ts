/**
 * The ids of the usage records already charged, so the same call is charged once: a chat span and
 * its inference log record (same `response:` id), an exporter's retry of a batch it thinks failed,
 * a file read again. Bounded: ids come back within minutes, not days; a caller that persists its
 * reading position (FileTail) does not re-read old lines in the first place.
 */
import type { ModelUsageRecord } from './types';

export class UsageDeduper {
  private readonly seen = new Set<string>();

  constructor(private readonly max = 50_000) {}

  /** The records not seen before, in order; they are remembered. */
  fresh(records: readonly ModelUsageRecord[]): ModelUsageRecord[] {
    const out: ModelUsageRecord[] = [];
    for (const r of records) {
      if (this.seen.has(r.id)) continue;
      this.seen.add(r.id);
      if (this.seen.size > this.max) this.seen.delete(this.seen.values().next().value as string);
      out.push(r);
    }
    return out;
  }
}
