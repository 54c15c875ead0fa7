/**
 * The comparison guard (issue 15): a comparison says what one component does only when everything
 * else was frozen. It refuses — naming every difference — when the two conditions' fingerprints
 * differ in more than one component (labels included), or when they ran different task instances,
 * budgets or trial counts, or under different versions of the suite.
 */
import type { HarnessFingerprint } from '../models/fingerprint/fingerprint';
import type { TrialOutcome } from './outcome';
import type { TrialBudget } from './suite';

/** Shown for a component one fingerprint has and the other does not (a label set on one side only). */
export const ABSENT = '(absent)';

export interface ComponentDiff {
  component: string;
  control: string;
  treatment: string;
}

export interface GuardVerdict {
  ok: boolean;
  /** One plain sentence per reason to refuse; empty when ok. */
  reasons: string[];
  /** Every component whose value differs between the two conditions' fingerprints. */
  differing: ComponentDiff[];
}

export interface ConditionOutcomes {
  name: string;
  outcomes: readonly TrialOutcome[];
}

/** Components whose values differ, in name order; a component only one side has counts. */
export function fingerprintDiff(control: HarnessFingerprint, treatment: HarnessFingerprint): ComponentDiff[] {
  const names = [...new Set([...Object.keys(control.components), ...Object.keys(treatment.components)])].sort();
  return names.flatMap((component) => {
    const c = control.components[component] ?? ABSENT;
    const t = treatment.components[component] ?? ABSENT;
    return c === t ? [] : [{ component, control: c, treatment: t }];
  });
}

export function describeDiff(d: ComponentDiff): string {
  return `${d.component} (${d.control} → ${d.treatment})`;
}

/** The part of the guard both trials and recorded history go through: one component at most. */
export function guardFingerprints(control: HarnessFingerprint, treatment: HarnessFingerprint): GuardVerdict {
  const differing = fingerprintDiff(control, treatment);
  const reasons = differing.length > 1
    ? [`the two differ in ${differing.length} components, not one: ${differing.map(describeDiff).join(', ')}`]
    : [];
  return { ok: reasons.length === 0, reasons, differing };
}

/** The whole guard for two conditions of a trial suite. */
export function guardTrials(control: ConditionOutcomes, treatment: ConditionOutcomes): GuardVerdict {
  const reasons: string[] = [];
  for (const side of [control, treatment]) {
    if (side.outcomes.length === 0) reasons.push(`condition "${side.name}" has no recorded trials`);
  }
  if (reasons.length > 0) return { ok: false, reasons, differing: [] };

  const fc = oneFingerprint(control, reasons);
  const ft = oneFingerprint(treatment, reasons);
  let differing: ComponentDiff[] = [];
  if (fc && ft) {
    const fp = guardFingerprints(fc, ft);
    differing = fp.differing;
    reasons.push(...fp.reasons);
  }
  const hc = distinct(control.outcomes.map((o) => o.suiteHash));
  const ht = distinct(treatment.outcomes.map((o) => o.suiteHash));
  if (hc.length > 1 || ht.length > 1) {
    // Trials already recorded under an earlier plan stay counted, so such a suite never compares again.
    reasons.push(`the suite's plan changed while their trials ran: "${control.name}" ran under suite ${hc.join(', ')}, "${treatment.name}" under ${ht.join(', ')}; trials run under different plans are not compared (a new name in the suite file starts its trials afresh)`);
  } else if (hc[0] !== ht[0]) {
    reasons.push(`the suite changed between them: "${control.name}" ran under suite ${hc.join(', ')}, "${treatment.name}" under ${ht.join(', ')}`);
  }
  const tc = byTask(control.outcomes);
  const tt = byTask(treatment.outcomes);
  for (const task of [...new Set([...tc.keys(), ...tt.keys()])].sort()) {
    const a = tc.get(task);
    const b = tt.get(task);
    if (!a || !b) {
      reasons.push(`task "${task}" ran only under "${(a ? control : treatment).name}"`);
      continue;
    }
    if (!sameSet(a.instances, b.instances)) {
      reasons.push(`task "${task}" ran as different instances (prompt, start commit, checks or budget): ${a.instances.join(', ')} under "${control.name}", ${b.instances.join(', ')} under "${treatment.name}"`);
    }
    if (!sameSet(a.budgets, b.budgets)) {
      reasons.push(`task "${task}" ran with different budgets: ${a.budgets.join(' and ')} under "${control.name}", ${b.budgets.join(' and ')} under "${treatment.name}"`);
    }
    if (a.count !== b.count) {
      reasons.push(`task "${task}" has ${a.count} trial${a.count === 1 ? '' : 's'} under "${control.name}" and ${b.count} under "${treatment.name}"`);
    } else if (sameSet(a.instances, b.instances) && a.instances.some((i) => a.perInstance.get(i) !== b.perInstance.get(i))) {
      const counts = (r: TaskRuns): string => a.instances.map((i) => `${i} ×${r.perInstance.get(i)}`).join(', ');
      reasons.push(`task "${task}" ran its instances different numbers of times: ${counts(a)} under "${control.name}", ${counts(b)} under "${treatment.name}"`);
    }
  }
  return { ok: reasons.length === 0, reasons, differing };
}

/** A condition's one fingerprint; several mean its configuration changed during the run. */
function oneFingerprint(side: ConditionOutcomes, reasons: string[]): HarnessFingerprint | undefined {
  const byId = new Map(side.outcomes.map((o) => [o.fingerprint.id, o.fingerprint]));
  const fps = [...byId.values()];
  if (fps.length === 1) return fps[0];
  const varying = [...new Set(fps.slice(1).flatMap((f) => fingerprintDiff(fps[0]!, f).map((d) => d.component)))].sort();
  reasons.push(`condition "${side.name}" ran under ${fps.length} fingerprints (${[...byId.keys()].join(', ')}), differing in ${varying.join(', ')}`);
  return undefined;
}

interface TaskRuns {
  instances: string[];
  budgets: string[];
  count: number;
  perInstance: Map<string, number>;
}

function byTask(outcomes: readonly TrialOutcome[]): Map<string, TaskRuns> {
  const tasks = new Map<string, TaskRuns>();
  for (const o of outcomes) {
    const t = tasks.get(o.task) ?? { instances: [], budgets: [], count: 0, perInstance: new Map<string, number>() };
    t.count++;
    t.perInstance.set(o.instance, (t.perInstance.get(o.instance) ?? 0) + 1);
    if (!t.instances.includes(o.instance)) t.instances.push(o.instance);
    const b = budgetText(o.budget);
    if (!t.budgets.includes(b)) t.budgets.push(b);
    tasks.set(o.task, t);
  }
  return tasks;
}

export function budgetText(b: TrialBudget): string {
  return `${b.tokens} tokens, ${b.seconds} s, $${b.usd}`;
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}
