import { addToDay, dailySpendStatus, spentToday, utcDayOf, type DaySpent } from '../../core/rules/budget/dailySpend';
import { eventsNewestFirst } from '../../core/base/events/read';
import type { AlfredEvent } from '../../core/base/events/types';
import type { Harness } from '../../core/harness/harness';
import { readUsage } from '../../core/models/usageLog';
import { summarizeUsage } from '../../core/usage/summary';
import type { AgentUsageView, DailySpendView, FailoverView, PackView } from '../../protocol/dashboard';
import { failoverView, packView } from '../chat/dashboardFeed';
import { dailyBudgetCap } from '../settings';

/**
 * Today's spend for the daily gauge: read from the log at each snapshot (only today's lines are
 * parsed), then kept current event by event so a charge updates the gauge without a re-read.
 */
export class DailySpendTracker {
  private spent: DaySpent | undefined;
  private dir: string | undefined;

  view(harness: Harness | undefined): DailySpendView | null {
    if (!harness) return null;
    if (this.dir !== harness.stateDir || this.spent?.day !== utcDayOf(new Date())) this.reload(harness);
    const cap = dailyBudgetCap();
    const s = dailySpendStatus(this.spent!, cap);
    return { day: s.day, spentUsd: s.usd, capUsd: s.capUsd, percent: s.percent, signal: s.signal, estimated: s.estimated };
  }

  reload(harness: Harness): void {
    this.dir = harness.stateDir;
    this.spent = spentToday(harness.stateDir);
  }

  /** Adds a live event; true when today's spend changed. */
  add(e: AlfredEvent): boolean {
    if (!this.spent) return false;
    const next = addToDay(this.spent, e);
    if (next === this.spent) return false;
    this.spent = next;
    return true;
  }
}

/** The failover section: the profiles of `alfred.profiles`, the active one, each link's health (chat/dashboardFeed.ts). */
export function failoverFromSettings(harness?: Harness): FailoverView {
  return failoverView(harness);
}

/** The pack section: the pack(s) `@alfred` used for its last prompt, and why. */
export function packFromState(harness?: Harness): PackView | null {
  return packView(harness);
}

/**
 * The ToolCall events of one UTC day, oldest first: the log is read backwards from its newest line and
 * the read stops at the first event of an earlier day, so only that day's lines are parsed.
 */
function toolCallsOn(dir: string, day: string): AlfredEvent[] {
  const calls: AlfredEvent[] = [];
  for (const e of eventsNewestFirst(dir)) {
    const eventDay = utcDayOf(e.ts);
    if (eventDay && eventDay < day) break;
    if (eventDay === day && e.type === 'ToolCall') calls.push(e);
  }
  return calls.reverse();
}

/** The agents' model use today (usage.jsonl), per agent session with its tool calls, and per model. */
export function agentUsageView(harness: Harness | undefined, now = new Date()): AgentUsageView | null {
  if (!harness) return null;
  const day = utcDayOf(now);
  const summary = summarizeUsage(readUsage(harness.stateDir, day).records, day, toolCallsOn(harness.stateDir, day));
  return { day, sessions: summary.sessions, models: summary.models };
}
