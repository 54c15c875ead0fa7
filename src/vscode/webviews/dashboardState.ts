import type { AlfredEvent } from '../../core/base/events/types';
import type { Harness } from '../../core/harness/harness';
import type { DashboardState, EventView } from '../../protocol/dashboard';
import { DASHBOARD_SECTIONS, type DashboardSection, type SectionContext } from './dashboardSectionList';
import { DailySpendTracker } from './dashboardSections';
import { localizedSummary } from './eventSummary';
import { GovernanceTracker } from './governanceSection';

const FEED_SIZE = 100;

export function eventView(e: AlfredEvent): EventView {
  return { id: e.id, ts: e.ts, type: e.type, summary: localizedSummary(e), json: JSON.stringify(e, null, 2) };
}

/** The feed's first page: the newest events, newest first; later ones come one by one. */
export function feedView(harness: Harness | undefined): EventView[] {
  return harness ? harness.events({ tail: FEED_SIZE }).events.reverse().map(eventView) : [];
}

/** Each section's state, computed once, for a full snapshot. */
export function sectionStates(ctx: SectionContext): Array<{ section: DashboardSection; state: Partial<DashboardState> }> {
  if (ctx.harness) {
    // A snapshot starts the trackers over from disk; live events keep them current afterwards.
    ctx.spend.reload(ctx.harness);
    ctx.governance.reload(ctx.harness);
  }
  return DASHBOARD_SECTIONS.map((section) => ({ section, state: section.state(ctx) }));
}

/** The whole state from its sections' parts and the feed's first page. */
export function assembleState(harness: Harness | undefined, parts: ReadonlyArray<{ state: Partial<DashboardState> }>): DashboardState {
  return Object.assign({ events: feedView(harness) }, ...parts.map((p) => p.state)) as DashboardState;
}

/** The full snapshot the dashboard renders when it is ready: every section's state and the feed. */
export function dashboardState(harness: Harness | undefined, trusted: boolean, spend = new DailySpendTracker(), governance = new GovernanceTracker()): DashboardState {
  return assembleState(harness, sectionStates({ harness, trusted, spend, governance }));
}
