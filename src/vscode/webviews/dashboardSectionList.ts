import type { AlfredEvent } from '../../core/base/events/types';
import type { Harness } from '../../core/harness/harness';
import type { BudgetView, DashboardState } from '../../protocol/dashboard';
import { HEALTH_SETTINGS } from '../hooks/health';
import { COMPLETION_EVENTS, completionsView } from './completionViews';
import { DailySpendTracker, agentUsageView, failoverFromSettings, packFromState } from './dashboardSections';
import { GovernanceTracker } from './governanceSection';
import { trialsView } from './trialsSection';
import { mcpView } from './mcpSection';
import type { TeamTracker } from './teamSection';
import type { ModelAvailability } from '../models/modelAvailability';

/** What a section computes from: the harness of the window and the trackers kept between events. */
export interface SectionContext {
  harness: Harness | undefined;
  trusted: boolean;
  spend: DailySpendTracker;
  governance: GovernanceTracker;
  /** Absent where nothing polls the team ledger (a snapshot in a test): the section is then empty. */
  team?: TeamTracker;
  /** Absent in a snapshot without the extension's model checks: the section is then empty. */
  models?: ModelAvailability;
}

/** The host events a section depends on; anything else leaves it as it is. */
export interface SectionTriggers {
  /** A new event of the log; true when it changes the section (it may update a tracker on the way). */
  event?: (e: AlfredEvent, ctx: SectionContext) => boolean;
  /** The harness changed: a charge, a role switch, roles reloaded. */
  harness?: boolean;
  /** Settings whose change redraws it. */
  settings?: readonly string[];
  /** The agents' hook files changed on disk (Alfred's commands, by hand, git). */
  hookFiles?: boolean;
}

/** One part of the dashboard: the fields of the state it owns, when they change, and how they are computed. */
export interface DashboardSection<K extends keyof DashboardState = keyof DashboardState> {
  name: string;
  on: SectionTriggers;
  /** While its events come in a burst, recompute at most this often (the state it reads is costly). */
  throttleMs?: number;
  state(ctx: SectionContext): Pick<DashboardState, K>;
}

export function budgetView(harness: Harness): BudgetView {
  const { status, line, session } = harness.budget();
  return { role: status.role, signal: status.signal, line, costEstimated: status.costEstimated, session: session ?? '', dimensions: status.dimensions };
}

const section = <K extends keyof DashboardState>(s: DashboardSection<K>): DashboardSection => s as unknown as DashboardSection;

/** Every section but the event feed, which appends one event at a time (EventNotification). */
export const DASHBOARD_SECTIONS: readonly DashboardSection[] = [
  section({
    name: 'workspace',
    on: {},
    state: ({ harness, trusted }) => ({ workspace: harness?.workspaceFolder ?? null, trusted, logPath: harness?.logPath ?? null }),
  }),
  section({
    name: 'roles',
    on: { harness: true },
    state: ({ harness }) => {
      if (!harness) return { activeRole: '', roles: [], problems: [] };
      const { roles, problems } = harness.roles();
      return {
        activeRole: harness.activeRole().role.name,
        roles: [...roles.values()].map((r) => ({ name: r.name, source: r.source, description: r.description, shellPolicy: r.shellPolicy, inherits: r.inherits })),
        problems: problems.map((p) => ({ path: p.path, key: p.key, message: p.message, severity: p.severity })),
      };
    },
  }),
  section({ name: 'budget', on: { harness: true }, state: ({ harness }) => ({ budget: harness ? budgetView(harness) : null }) }),
  // Redrawn by its tracker (teamSection.ts), which polls the team ledger.
  section({ name: 'team', on: {}, state: ({ team }) => ({ team: team?.current() ?? null }) }),
  // Redrawn by its tracker (models/modelAvailability.ts), which follows VS Code's models and the providers.
  section({ name: 'models', on: {}, state: ({ models }) => ({ models: models?.current() ?? null }) }),
  section({
    name: 'dailySpend',
    on: { event: (e, { spend }) => spend.add(e), settings: ['alfred.dailyBudgetUsd'] },
    state: ({ harness, spend }) => ({ dailySpend: spend.view(harness) }),
  }),
  // @alfred's failover health and pack change between turns.
  section({ name: 'failover', on: { harness: true, settings: ['alfred.profiles'] }, state: ({ harness }) => ({ failover: failoverFromSettings(harness) }) }),
  section({ name: 'pack', on: { harness: true, settings: ['alfred.pinnedPacks', 'alfred.autopilot'] }, state: ({ harness }) => ({ pack: packFromState(harness) }) }),
  section({ name: 'completions', on: { event: (e) => COMPLETION_EVENTS.has(e.type) }, state: ({ harness }) => completionsView(harness) }),
  section({
    name: 'governance',
    // VS Code's own hook settings decide whether Copilot's hooks are in force.
    on: { event: (e, { governance }) => governance.add(e), harness: true, settings: HEALTH_SETTINGS, hookFiles: true },
    state: ({ harness, governance }) => ({ governance: governance.view(harness) }),
  }),
  section({
    name: 'agentUsage',
    // usage.jsonl and the day's tool calls are read again: once the calls of a burst are in.
    on: { event: (e) => e.type === 'ModelUsage' || e.type === 'ToolCall' },
    throttleMs: 3000,
    state: ({ harness }) => ({ agentUsage: agentUsageView(harness) }),
  }),
  // The audit runner refreshes the host when latest.json changes (src/vscode/mcp/).
  section({ name: 'mcp', on: { harness: true }, state: ({ harness }) => ({ mcp: mcpView(harness) }) }),
  // Outcomes are read and compared again at most every 3 s; a snapshot (the view shown again) reads them anew.
  section({ name: 'trials', on: { harness: true }, throttleMs: 3000, state: ({ harness }) => ({ trials: trialsView(harness) }) }),
];

/** Every setting some section follows. */
export const SECTION_SETTINGS: readonly string[] = [...new Set(DASHBOARD_SECTIONS.flatMap((s) => s.on.settings ?? []))];
