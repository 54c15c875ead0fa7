/**
 * The comparison report (issue 15): per metric, control and treatment means with their 95% intervals
 * and the counts behind them, the difference treatment − control, and plain sentences — whether the
 * interval includes no change, whether the component costs more than it saves. Pure: the CLI and the
 * dashboard render the same object (text here, or as JSON).
 */
import type { HarnessFingerprint } from '../models/fingerprint/fingerprint';
import { describeDiff, guardTrials, type ComponentDiff, type ConditionOutcomes } from './guard';
import type { SuiteChangedLine, TrialOutcome } from './outcome';
import { bootstrapDifference, bootstrapMean, rateDifference, wilson, type BootstrapOptions, type Difference, type Estimate } from './stats';

export type MetricId = 'acceptance' | 'escapedDefects' | 'duplicatedToolActions' | 'tokens' | 'costUsd' | 'wallMs';

export interface MetricRow {
  metric: MetricId;
  label: string;
  kind: 'rate' | 'mean';
  /** Which way is better: only acceptance is better higher. */
  better: 'higher' | 'lower';
  control: Estimate | null;
  treatment: Estimate | null;
  difference: Difference | null;
  /** One sentence on the difference. */
  verdict: string;
}

export interface ComparisonSide {
  name: string;
  fingerprint: HarnessFingerprint | null;
  /** Every started trial (or recorded completion) of this side. */
  count: number;
}

export interface Comparison {
  source: 'trials' | 'history';
  suite?: string;
  control: ComparisonSide;
  treatment: ComparisonSide;
  refused: boolean;
  /** Why the guard refused; empty when it did not. */
  reasons: string[];
  /** The one component that differs; null when the two fingerprints are the same. */
  component: ComponentDiff | null;
  metrics: MetricRow[];
  /** Plain sentences: what the comparison says, and what it cannot. */
  conclusions: string[];
  notes: string[];
}

export interface CompareTrialsOptions extends BootstrapOptions {
  suite?: string;
  suiteChanges?: readonly SuiteChangedLine[];
  /** The suite's `trials`: fewer recorded per task is said in the notes. */
  plannedTrials?: number;
}

/** Below this many measured trials a side, a percentile bootstrap understates the spread. */
export const FEW_TRIALS = 10;

const LABELS: Record<MetricId, string> = {
  acceptance: 'Acceptance rate',
  escapedDefects: 'Escaped defects (accepted, a hidden check failed)',
  duplicatedToolActions: 'Duplicated tool actions per trial',
  tokens: 'Tokens per trial',
  costUsd: 'Cost per trial',
  wallMs: 'Wall time per trial',
};

/** The comparison of two conditions of a suite; refused (no metrics) when the guard refuses. */
export function compareTrials(control: ConditionOutcomes, treatment: ConditionOutcomes, options: CompareTrialsOptions = {}): Comparison {
  const verdict = guardTrials(control, treatment);
  const notes = suiteNotes(options.suiteChanges ?? []);
  const base = {
    source: 'trials' as const,
    ...(options.suite !== undefined ? { suite: options.suite } : {}),
    control: side(control.name, control.outcomes),
    treatment: side(treatment.name, treatment.outcomes),
    reasons: verdict.reasons,
    component: verdict.differing.length === 1 ? verdict.differing[0]! : null,
  };
  if (!verdict.ok) return { ...base, refused: true, metrics: [], conclusions: [], notes };

  const c = control.outcomes;
  const t = treatment.outcomes;
  const metrics: MetricRow[] = [rateRow('acceptance', count(c, (o) => o.status === 'accepted'), count(t, (o) => o.status === 'accepted'))];
  const hiddenC = c.filter((o) => o.escapedDefect !== null);
  const hiddenT = t.filter((o) => o.escapedDefect !== null);
  if (hiddenC.length > 0 || hiddenT.length > 0) {
    metrics.push(rateRow('escapedDefects', count(hiddenC, (o) => o.escapedDefect === true), count(hiddenT, (o) => o.escapedDefect === true)));
  } else notes.push('Escaped defects are not measured: no accepted trial ran hidden checks.');
  // An interrupted trial measured nothing: it is a failure for acceptance, and left out of the rest.
  const mc = c.filter((o) => o.status !== 'interrupted');
  const mt = t.filter((o) => o.status !== 'interrupted');
  for (const metric of ['duplicatedToolActions', 'tokens', 'costUsd', 'wallMs'] as const) {
    metrics.push(meanRow(metric, mc.map((o) => o[metric]), mt.map((o) => o[metric]), options));
  }
  const interrupted = c.length - mc.length + t.length - mt.length;
  if (interrupted > 0) {
    notes.push(interrupted === 1
      ? '1 interrupted trial counts as a failure in the acceptance rate; having measured nothing, it is left out of the other metrics.'
      : `${interrupted} interrupted trials count as failures in the acceptance rate; having measured nothing, they are left out of the other metrics.`);
  }
  const fewest = Math.min(mc.length, mt.length);
  if (fewest > 0 && fewest < FEW_TRIALS) {
    notes.push(`With ${fewest} measured trial${fewest === 1 ? '' : 's'} on the smaller side, the bootstrap intervals are too narrow (a percentile bootstrap needs about ${FEW_TRIALS} or more): read them as rough.`);
  }
  if (options.plannedTrials !== undefined) notes.push(...plannedNotes([control, treatment], options.plannedTrials));
  return { ...base, refused: false, metrics, conclusions: conclusions(metrics, base.component, treatment.name), notes };
}

export function side(name: string, outcomes: readonly TrialOutcome[]): ComparisonSide {
  return { name, fingerprint: outcomes[0]?.fingerprint ?? null, count: outcomes.length };
}

interface Counted {
  successes: number;
  n: number;
}

function count(outcomes: readonly TrialOutcome[], success: (o: TrialOutcome) => boolean): Counted {
  return { successes: outcomes.filter(success).length, n: outcomes.length };
}

/** A rate's row: Wilson intervals, Newcombe's for the difference. */
export function rateRow(metric: MetricId, control: Counted, treatment: Counted): MetricRow {
  const c = wilson(control.successes, control.n);
  const t = wilson(treatment.successes, treatment.n);
  const difference = c && t ? rateDifference(t, c) : null;
  const better = metric === 'acceptance' ? 'higher' : 'lower';
  return { metric, label: LABELS[metric], kind: 'rate', better, control: c, treatment: t, difference, verdict: verdictOf(metric, 'rate', better, difference) };
}

function meanRow(metric: MetricId, control: number[], treatment: number[], options: BootstrapOptions): MetricRow {
  const difference = bootstrapDifference(treatment, control, options);
  return {
    metric, label: LABELS[metric], kind: 'mean', better: 'lower',
    control: bootstrapMean(control, options), treatment: bootstrapMean(treatment, options), difference,
    verdict: verdictOf(metric, 'mean', 'lower', difference),
  };
}

function verdictOf(metric: MetricId, kind: 'rate' | 'mean', better: 'higher' | 'lower', d: Difference | null): string {
  if (!d) return 'not enough trials on both sides to compare';
  if (d.noChange) return 'the interval includes no change';
  const up = d.estimate > 0;
  return `the treatment is ${up ? 'higher' : 'lower'} by ${formatDelta(metric, kind, Math.abs(d.estimate))} (${up === (better === 'higher') ? 'better' : 'worse'})`;
}

/** The sentences a reader wants first: did it help, with what certainty, at what cost. */
function conclusions(metrics: readonly MetricRow[], component: ComponentDiff | null, treatment: string): string[] {
  const what = component ? `Changing ${describeDiff(component)}` : `The treatment "${treatment}"`;
  const acc = metrics.find((m) => m.metric === 'acceptance')!;
  const out: string[] = [];
  const d = acc.difference;
  if (d && !d.noChange) {
    out.push(`${what} ${d.estimate > 0 ? 'raised' : 'lowered'} the acceptance rate from ${pct(acc.control!.mean)} to ${pct(acc.treatment!.mean)} (${signed(d.estimate * 100, 1)} points, 95% interval ${signed(d.low * 100, 1)} to ${signed(d.high * 100, 1)}).`);
  } else if (d) {
    out.push(`Acceptance rate: the interval includes no change (${signed(d.estimate * 100, 1)} points, 95% interval ${signed(d.low * 100, 1)} to ${signed(d.high * 100, 1)}); these trials cannot tell whether it helps.`);
  }
  for (const m of metrics) {
    if (m.metric === 'acceptance' || !m.difference || m.difference.noChange) continue;
    out.push(`${m.label}: ${m.verdict}, 95% interval ${formatSigned(m.metric, m.kind, m.difference.low)} to ${formatSigned(m.metric, m.kind, m.difference.high)}.`);
  }
  const cost = metrics.find((m) => m.metric === 'costUsd')?.difference;
  const gained = d !== null && !d.noChange && d.estimate > 0;
  if (cost && cost.estimate > 0 && !gained) {
    out.push(`${what} costs more than it saves: ${usd(cost.estimate)} more per trial with no gain in acceptance${cost.noChange ? ' (though the cost difference\'s interval includes no change too)' : ''}.`);
  }
  return out;
}

function suiteNotes(changes: readonly SuiteChangedLine[]): string[] {
  return changes.map((c) => `The suite changed at ${c.at}: its plan hash went from ${c.from} to ${c.to}.`);
}

function plannedNotes(sides: readonly ConditionOutcomes[], planned: number): string[] {
  return sides.flatMap((s) => {
    const perTask = new Map<string, number>();
    for (const o of s.outcomes) perTask.set(o.task, (perTask.get(o.task) ?? 0) + 1);
    const short = [...perTask].filter(([, n]) => n < planned).map(([task, n]) => `${task} ${n}/${planned}`);
    return short.length > 0 ? [`"${s.name}" has fewer trials than planned: ${short.join(', ')}.`] : [];
  });
}

// ---- text ----

/** The report as lines for a terminal. */
export function renderComparison(c: Comparison): string {
  const lines = [`Comparison of ${c.source === 'history' ? 'recorded history' : `suite "${c.suite ?? ''}"`}: control "${c.control.name}" (${c.control.count}) vs treatment "${c.treatment.name}" (${c.treatment.count})`];
  if (c.refused) {
    lines.push('Refused: this comparison would not be controlled.', ...c.reasons.map((r) => `  - ${r}`));
    lines.push(...c.notes.map((n) => `Note: ${n}`));
    return lines.join('\n');
  }
  lines.push(c.component ? `Component changed: ${describeDiff(c.component)}` : 'The two fingerprints are the same: no component changed.');
  for (const m of c.metrics) {
    lines.push('', m.label);
    lines.push(`  control    ${estimateText(m, m.control)}`);
    lines.push(`  treatment  ${estimateText(m, m.treatment)}`);
    if (m.difference) {
      lines.push(`  difference ${formatSigned(m.metric, m.kind, m.difference.estimate)}, 95% interval ${formatSigned(m.metric, m.kind, m.difference.low)} to ${formatSigned(m.metric, m.kind, m.difference.high)}: ${m.verdict}`);
    } else lines.push(`  difference ${m.verdict}`);
  }
  if (c.conclusions.length > 0) lines.push('', ...c.conclusions);
  if (c.notes.length > 0) lines.push('', ...c.notes.map((n) => `Note: ${n}`));
  return lines.join('\n');
}

function estimateText(m: MetricRow, e: Estimate | null): string {
  if (!e) return 'no trials';
  const counts = m.kind === 'rate' ? `${e.successes} of ${e.n}` : `n = ${e.n}`;
  return `${formatValue(m.metric, m.kind, e.mean)} (${counts}), 95% interval ${formatValue(m.metric, m.kind, e.low)} to ${formatValue(m.metric, m.kind, e.high)}`;
}

function formatValue(metric: MetricId, kind: 'rate' | 'mean', v: number): string {
  if (kind === 'rate') return pct(v);
  if (metric === 'costUsd') return usd(v);
  if (metric === 'wallMs') return `${(v / 1000).toFixed(1)} s`;
  return v.toFixed(metric === 'tokens' ? 0 : 2);
}

function formatDelta(metric: MetricId, kind: 'rate' | 'mean', v: number): string {
  return kind === 'rate' ? `${(v * 100).toFixed(1)} points` : formatValue(metric, kind, v);
}

function formatSigned(metric: MetricId, kind: 'rate' | 'mean', v: number): string {
  const text = formatDelta(metric, kind, Math.abs(v));
  return `${v < 0 ? '-' : '+'}${text}`;
}

const pct = (v: number): string => `${(v * 100).toFixed(1)}%`;
const usd = (v: number): string => `$${v.toFixed(4)}`;
const signed = (v: number, digits: number): string => `${v < 0 ? '-' : '+'}${Math.abs(v).toFixed(digits)}`;

/** The report as JSON (what `--json` prints and the dashboard reads). */
export function comparisonJson(c: Comparison): string {
  return JSON.stringify(c, null, 2);
}
