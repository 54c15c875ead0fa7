import * as vscode from 'vscode';
import { addToDay, dailySpendStatus, spentToday, utcDayOf, type DaySpent } from '../../core/budget/dailySpend';
import type { AlfredEvent } from '../../core/events/types';
import type { Harness } from '../../core/harness';
import type { DailySpendView, FailoverView, GovernanceView, PackView } from '../../protocol/dashboard';
import { failoverView, packView } from '../chat/dashboardFeed';
import { GovernanceTracker } from './governanceSection';

/** Settings whose change redraws a section: the daily cap and the failover profiles. */
export const SECTION_SETTINGS = ['alfred.dailyBudgetUsd', 'alfred.profiles', 'alfred.autopilot', 'alfred.pinnedPacks'];

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
    const cap = vscode.workspace.getConfiguration('alfred').get<number>('dailyBudgetUsd');
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

export function sectionsView(harness: Harness | undefined, spend: DailySpendTracker, governance = new GovernanceTracker()): {
  dailySpend: DailySpendView | null; failover: FailoverView; pack: PackView | null; governance: GovernanceView | null;
} {
  return { dailySpend: spend.view(harness), failover: failoverFromSettings(harness), pack: packFromState(harness), governance: governance.view(harness) };
}
