import type { AlfredEvent } from '../../core/events/types';
import type { Harness } from '../../core/harness';
import type { BudgetView, DashboardState, EventView } from '../../protocol/dashboard';
import { completionsView } from './completionViews';
import { DailySpendTracker, sectionsView } from './dashboardSections';
import { localizedSummary } from './eventSummary';
import { GovernanceTracker } from './governanceSection';

const FEED_SIZE = 100;

export function eventView(e: AlfredEvent): EventView {
  return { id: e.id, ts: e.ts, type: e.type, summary: localizedSummary(e), json: JSON.stringify(e, null, 2) };
}

export function budgetView(harness: Harness): BudgetView {
  const { status, line, session } = harness.budget();
  return { role: status.role, signal: status.signal, line, costEstimated: status.costEstimated, session: session ?? '', dimensions: status.dimensions };
}

/** The full snapshot the dashboard renders on `ready` and after anything but a single event. */
export function dashboardState(harness: Harness | undefined, trusted: boolean, spend = new DailySpendTracker(), governance = new GovernanceTracker()): DashboardState {
  if (!harness) {
    return { workspace: null, trusted, activeRole: '', budget: null, roles: [], problems: [], events: [], logPath: null, ...completionsView(undefined), ...sectionsView(undefined, spend, governance) };
  }
  const { roles, problems } = harness.roles();
  return {
    workspace: harness.workspaceFolder,
    trusted,
    activeRole: harness.activeRole().role.name,
    budget: budgetView(harness),
    roles: [...roles.values()].map((r) => ({ name: r.name, source: r.source, description: r.description, shellPolicy: r.shellPolicy, inherits: r.inherits })),
    problems: problems.map((p) => ({ path: p.path, key: p.key, message: p.message, severity: p.severity })),
    events: harness.events({ tail: FEED_SIZE }).events.reverse().map(eventView),
    logPath: harness.logPath,
    ...completionsView(harness),
    ...sectionsView(harness, spend, governance),
  };
}
