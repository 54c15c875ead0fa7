/** The dashboard's "Trials" section: the workspace's suites (core/trials/overview.ts) as the page shows them. */
import type { Harness } from '../../core/harness';
import type { Comparison } from '../../core/trials/compare';
import { describeDiff } from '../../core/trials/guard';
import { trialsOverview } from '../../core/trials/overview';
import type { TrialComparisonView, TrialsView } from '../../protocol/trials';

export function comparisonView(c: Comparison): TrialComparisonView {
  return {
    control: c.control.name, treatment: c.treatment.name, refused: c.refused, reasons: c.reasons,
    component: c.component ? describeDiff(c.component) : null,
    metrics: c.metrics.map((m) => ({ metric: m.metric, kind: m.kind, better: m.better, control: m.control, treatment: m.treatment, difference: m.difference })),
  };
}

export function trialsView(harness: Harness | undefined): TrialsView | null {
  if (!harness) return null;
  return {
    suites: trialsOverview(harness.workspaceFolder).map((s) => ({
      name: s.name, conditions: s.conditions, comparisons: s.comparisons.map(comparisonView), suiteChanges: s.suiteChanges, corrupt: s.corrupt,
    })),
  };
}
