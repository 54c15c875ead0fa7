/**
 * Today's spend for the dashboard's daily gauge: the priced usage charged to role budgets on the
 * current UTC day, across sessions and roles — the `charge.costUsd` of every event that carries one
 * (tool calls, and model requests where they are charged), so nothing is counted twice. Advisory
 * (ARCHITECTURE.md, Advisory limits warn, budgets refuse): a signal to colour the gauge, never a refusal.
 */
import { eventsNewestFirst } from '../../base/events/read';
import type { AlfredEvent } from '../../base/events/types';
import { percentOf, signalFor } from './status';
import type { Signal } from './types';

export const DAILY_WARN_PERCENT = 80;
export const DAILY_CAP_PERCENT = 100;

export interface DaySpent {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  usd: number;
  /** Some of it was priced with the fallback price. */
  estimated: boolean;
  /** How many charges made it up. */
  charges: number;
}

export interface DailySpendStatus extends DaySpent {
  /** null: no cap set (`alfred.dailyBudgetUsd` is 0 or missing). */
  capUsd: number | null;
  percent: number | null;
  signal: Signal;
}

export function utcDayOf(at: Date | string): string {
  const d = typeof at === 'string' ? new Date(at) : at;
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 10);
}

/** The cost an event charged, or 0. */
export function chargedCost(e: AlfredEvent): { usd: number; estimated: boolean } {
  const c = e.charge as { costUsd?: unknown; estimated?: unknown } | undefined;
  const usd = typeof c?.costUsd === 'number' && Number.isFinite(c.costUsd) && c.costUsd > 0 ? c.costUsd : 0;
  return { usd, estimated: usd > 0 && c?.estimated === true };
}

/** Adds one event to a day's total when it happened that day. */
export function addToDay(spent: DaySpent, e: AlfredEvent): DaySpent {
  if (utcDayOf(e.ts) !== spent.day) return spent;
  const { usd, estimated } = chargedCost(e);
  return usd > 0 ? { day: spent.day, usd: spent.usd + usd, estimated: spent.estimated || estimated, charges: spent.charges + 1 } : spent;
}

/**
 * Reads the log backwards from its newest line and stops at the first event of an earlier day, so
 * only today's lines are parsed however long the log is. Unreadable lines are skipped.
 */
export function spentToday(stateDir: string, now: Date = new Date()): DaySpent {
  const day = utcDayOf(now);
  let spent: DaySpent = { day, usd: 0, estimated: false, charges: 0 };
  for (const e of eventsNewestFirst(stateDir)) {
    const eventDay = utcDayOf(e.ts);
    if (eventDay && eventDay < day) break;
    spent = addToDay(spent, e);
  }
  return spent;
}

export function dailySpendStatus(spent: DaySpent, capUsd: number | undefined): DailySpendStatus {
  if (!(typeof capUsd === 'number' && capUsd > 0)) return { ...spent, capUsd: null, percent: null, signal: 'OK' };
  const percent = percentOf(spent.usd, capUsd);
  return { ...spent, capUsd, percent, signal: signalFor(percent, DAILY_WARN_PERCENT, DAILY_CAP_PERCENT) };
}
