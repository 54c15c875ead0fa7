/**
 * `usage.jsonl` in the state folder: one priced model request a line, appended under the state lock
 * (the record of `@alfred`'s model use). The daily spend itself is everything charged today — tools,
 * hooks and models alike — read from the event log (rules/budget/dailySpend.ts), so `@alfred`'s notices and
 * the dashboard's gauge show one number. `spend.json` remembers which daily notices were given.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spentToday } from '../rules/budget/dailySpend';
import { atomicWrite } from '../base/fs/atomicWrite';
import { appendJsonLines, readJsonLines, type CorruptLine } from '../base/fs/jsonLines';
import { withLock } from '../base/state/lock';
import { dueNotices, spendStatus, utcDay, type SpendNotice, type SpendNoticed, type SpendStatus, type UsageRecord } from './spend';

export const USAGE_FILE = 'usage.jsonl';
export const SPEND_FILE = 'spend.json';

/** Appends one record. Call it under the state lock (inside `transact`, or `withLock`). */
export function appendUsage(dir: string, record: UsageRecord): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  appendJsonLines(path.join(dir, USAGE_FILE), [record]);
}

function isRecord(v: unknown): v is UsageRecord {
  const r = v as Partial<UsageRecord> | null;
  return typeof r === 'object' && r !== null && typeof r.ts === 'string' && typeof r.model === 'string'
    && typeof r.costUsd === 'number' && Number.isFinite(r.costUsd) && r.costUsd >= 0;
}

/**
 * The records, optionally of one UTC day only (lines of other days are skipped before parsing);
 * unreadable lines are skipped and reported, never fatal.
 */
export function readUsage(dir: string, day?: string): { records: UsageRecord[]; corrupt: CorruptLine[] } {
  const { records, corrupt } = readJsonLines(path.join(dir, USAGE_FILE), (v) => (isRecord(v) ? v : 'not a usage record'), {
    // Records are written with "ts" first: a cheap filter before JSON.parse.
    skip: day ? (line) => line.startsWith('{"ts":"') && !line.startsWith(`{"ts":"${day}`) : undefined,
  });
  return { records: day ? records.filter((r) => utcDay(r.ts) === day) : records, corrupt };
}

/** Today's spend (every charge of the UTC day, from the event log) against the cap, for display (no lock). */
export function dailySpend(dir: string, capUsd: number, now: Date = new Date()): SpendStatus & { corrupt: CorruptLine[] } {
  const today = spentToday(dir, now);
  return { ...spendStatus({ day: today.day, usd: today.usd, estimated: today.estimated, records: today.charges }, capUsd), corrupt: [] };
}

function readNoticed(dir: string): SpendNoticed | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(path.join(dir, SPEND_FILE), 'utf8')) as SpendNoticed;
    return typeof v?.day === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Today's spend and the notices due now, each given once a day even across windows (decided under
 * the lock, remembered in spend.json).
 */
export function takeSpendNotices(dir: string, capUsd: number, now: Date = new Date()): Promise<{ status: SpendStatus; notices: SpendNotice[] }> {
  return withLock(dir, () => {
    const { corrupt: _c, ...status } = dailySpend(dir, capUsd, now);
    if (status.level === 'off') return { status, notices: [] };
    const { notices, noticed } = dueNotices(readNoticed(dir), status);
    if (notices.length) atomicWrite(path.join(dir, SPEND_FILE), JSON.stringify(noticed) + '\n');
    return { status, notices };
  });
}
