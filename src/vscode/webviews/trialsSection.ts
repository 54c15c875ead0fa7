/** The dashboard's "Trials" section: the workspace's suites (core/trials/overview.ts) as the page shows it. */
import * as fs from 'node:fs';
import type { Harness } from '../../core/harness/harness';
import type { Comparison } from '../../core/trials/compare';
import { describeDiff } from '../../core/trials/guard';
import { listSuites, trialsOverview } from '../../core/trials/overview';
import { outcomesPath } from '../../core/trials/store';
import { suiteFilePath } from '../../core/trials/suite';
import type { TrialComparisonView, TrialsView } from '../../protocol/trials';

export function comparisonView(c: Comparison): TrialComparisonView {
  return {
    control: c.control.name, treatment: c.treatment.name, refused: c.refused, reasons: c.reasons,
    component: c.component ? describeDiff(c.component) : null,
    metrics: c.metrics.map((m) => ({ metric: m.metric, kind: m.kind, better: m.better, control: m.control, treatment: m.treatment, difference: m.difference })),
    conclusions: c.conclusions, notes: c.notes,
  };
}

/**
 * The section follows every charge of the harness, and a comparison resamples thousands of times:
 * the view is kept per workspace and computed again only when a stat shows an outcomes file or the
 * suite file changed.
 */
const kept = new Map<string, { stamp: string; view: TrialsView }>();

function stampOf(workspaceFolder: string): string {
  return [suiteFilePath(workspaceFolder), ...listSuites(workspaceFolder).map((name) => outcomesPath(workspaceFolder, name))].map((file) => {
    const st = fs.statSync(file, { throwIfNoEntry: false });
    return st ? `${file}:${st.ino}:${st.size}:${st.mtimeMs}` : '-';
  }).join('|');
}

export function trialsView(harness: Harness | undefined): TrialsView | null {
  if (!harness) return null;
  const ws = harness.workspaceFolder;
  const stamp = stampOf(ws);
  const cached = kept.get(ws);
  if (cached?.stamp === stamp) return cached.view;
  const view = {
    suites: trialsOverview(ws).map((s) => ({
      name: s.name, conditions: s.conditions, comparisons: s.comparisons.map(comparisonView), suiteChanges: s.suiteChanges, corrupt: s.corrupt,
    })),
  };
  kept.set(ws, { stamp, view });
  return view;
}
