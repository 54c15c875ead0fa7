/**
 * The curation watchdog (after the Alfred-Pi seed's assessCuration): whether a package is still looked
 * after, from its weekly downloads and its last publish. Informative only: it never blocks.
 *
 * - `dead`: fewer weekly downloads than the threshold AND no publish for longer than the age limit;
 * - `decaying`: one of the two;
 * - `alive`: neither;
 * - without a downloads figure (a registry with no downloads API), the last publish alone decides
 *   between `alive` and `decaying`: nothing says dead without the downloads;
 * - `unknown` when the registry gives neither.
 */
import type { Curation, McpAudit } from './types';
import type { Packument } from './registry';

export interface CurationThresholds {
  /** Below this many downloads in the last week, a package is rarely used. The seed's default: 100. */
  minWeeklyDownloads: number;
  /** More days than this since the last publish, a package is stale. The seed's default: 90. */
  maxDaysSincePublish: number;
}

export const DEFAULT_CURATION: CurationThresholds = { minWeeklyDownloads: 100, maxDaysSincePublish: 90 };

const DAY_MS = 86_400_000;

export function assessCuration(facts: { weeklyDownloads?: number; lastPublish?: string }, now: Date, t: CurationThresholds = DEFAULT_CURATION): Curation {
  const published = facts.lastPublish ? Date.parse(facts.lastPublish) : NaN;
  const stale = Number.isNaN(published) ? undefined : now.getTime() - published > t.maxDaysSincePublish * DAY_MS;
  const rare = facts.weeklyDownloads === undefined ? undefined : facts.weeklyDownloads < t.minWeeklyDownloads;
  if (stale === undefined && rare === undefined) return 'unknown';
  if (rare === undefined) return stale ? 'decaying' : 'alive';
  if (stale === undefined) return rare ? 'decaying' : 'alive';
  return stale && rare ? 'dead' : stale || rare ? 'decaying' : 'alive';
}

/** The newest publish of any version (`time[version]`), else `time.modified`, as ISO text. */
export function lastPublish(doc: Packument): string | undefined {
  const time = doc.time ?? {};
  const versions = Object.keys(doc.versions ?? {});
  const stamps = versions.map((v) => time[v]).filter((t): t is string => typeof t === 'string' && !Number.isNaN(Date.parse(t)));
  const newest = stamps.sort((a, b) => Date.parse(b) - Date.parse(a))[0] ?? time.modified;
  return newest && !Number.isNaN(Date.parse(newest)) ? new Date(newest).toISOString() : undefined;
}

/** The audit's curation block: verdict, the facts it came from, and the audited version's deprecation. */
export function curationOf(doc: Packument, version: string, weeklyDownloads: number | undefined, now: Date, t?: CurationThresholds): McpAudit['curation'] {
  const published = lastPublish(doc);
  const deprecated = doc.versions?.[version]?.deprecated;
  return {
    verdict: assessCuration({ weeklyDownloads, lastPublish: published }, now, t),
    ...(weeklyDownloads !== undefined ? { weeklyDownloads } : {}),
    ...(published ? { lastPublish: published } : {}),
    ...(typeof deprecated === 'string' && deprecated ? { deprecated } : {}),
  };
}
