/** The dashboard's "Trials" section: each suite with recorded trials and its conditions compared with the control. */

export type TrialMetricId = 'acceptance' | 'escapedDefects' | 'duplicatedToolActions' | 'tokens' | 'costUsd' | 'wallMs';

export interface TrialEstimateView {
  mean: number;
  /** The 95% interval. */
  low: number;
  high: number;
  n: number;
  /** For a rate: how many of the n. */
  successes?: number;
}

export interface TrialDifferenceView {
  /** Treatment − control. */
  estimate: number;
  low: number;
  high: number;
  /** The interval includes 0. */
  noChange: boolean;
}

export interface TrialMetricView {
  metric: TrialMetricId;
  kind: 'rate' | 'mean';
  better: 'higher' | 'lower';
  control: TrialEstimateView | null;
  treatment: TrialEstimateView | null;
  difference: TrialDifferenceView | null;
}

export interface TrialComparisonView {
  control: string;
  treatment: string;
  refused: boolean;
  /** Why it was refused, as the guard words it. */
  reasons: string[];
  /** The one component changed: `handoff (off → on)`; null when none. */
  component: string | null;
  metrics: TrialMetricView[];
  /**
   * What the comparison says and what it cannot (the component costs more than it saves, an interval
   * includes no change), and its notes (too few trials, a changed suite): the sentences `alfred compare`
   * prints, from the same core report, in English like the guard's reasons.
   */
  conclusions: string[];
  notes: string[];
}

export interface TrialConditionView {
  name: string;
  control: boolean;
  trials: number;
  accepted: number;
  interrupted: number;
}

export interface TrialSuiteView {
  name: string;
  conditions: TrialConditionView[];
  comparisons: TrialComparisonView[];
  /** How many times the suite's plan changed between runs. */
  suiteChanges: number;
  /** Lines of the outcomes file that could not be read. */
  corrupt: number;
}

export interface TrialsView {
  suites: TrialSuiteView[];
}

/** Every English string the section shows (translated by the host, like DASHBOARD_STRINGS). */
export const TRIALS_STRINGS: readonly string[] = [
  'Trials', 'No trials recorded yet: alfred trial run runs the suite of .alfred/trials.toml.',
  'Suite {0}', '{0}: accepted {1} of {2}', 'interrupted: {0}', '(control)', '{0} against {1}',
  'Refused: this comparison would not be controlled.', 'Component changed: {0}', 'No component changed.',
  'Acceptance rate', 'Escaped defects', 'Duplicated tool actions', 'Tokens per trial', 'Cost per trial', 'Wall time per trial',
  'Control', 'Treatment', 'Difference', 'no change', 'better', 'worse', 'not enough trials',
  '{0} of {1}', 'n = {0}', '95% interval {0} to {1}', 'The suite changed {0} times between runs.', '{0} unreadable lines left out.', 'Note: {0}',
];
