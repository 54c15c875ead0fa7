/**
 * Recorded history (issue 15): the outcomes of ordinary work — completion records written by
 * Copilot's Stop hook, `@alfred /done`, Verify Completion and `alfred check` — grouped by the harness
 * fingerprint that produced them, so two configurations can be compared with the same guard as trials.
 */
import { readCompletions, type CompletionRecord } from '../workflow/completion/record';
import type { HarnessFingerprint } from '../models/fingerprint/fingerprint';
import type { CorruptLine } from '../base/fs/jsonLines';
import { rateRow, type Comparison } from './compare';
import { guardFingerprints } from './guard';

export interface FingerprintGroup {
  fingerprint: HarnessFingerprint;
  accepted: number;
  rejected: number;
  /** Oldest and newest record's time. */
  first: string;
  last: string;
  /** How many records each trigger wrote (`hook:Stop`, `chat`, `cli`, …). */
  triggers: Record<string, number>;
}

export interface History {
  /** Most records first. */
  groups: FingerprintGroup[];
  /** Records written before fingerprints existed: they belong to no group. */
  withoutFingerprint: number;
  corrupt: CorruptLine[];
}

export function readHistory(stateDir: string): History {
  const { records, corrupt } = readCompletions(stateDir);
  return { ...groupCompletions(records), corrupt };
}

export function groupCompletions(records: readonly CompletionRecord[]): Omit<History, 'corrupt'> {
  const groups = new Map<string, FingerprintGroup>();
  let withoutFingerprint = 0;
  for (const r of records) {
    if (!r.fingerprint) {
      withoutFingerprint++;
      continue;
    }
    const g = groups.get(r.fingerprint.id) ?? { fingerprint: r.fingerprint, accepted: 0, rejected: 0, first: r.ts, last: r.ts, triggers: {} };
    if (r.accepted) g.accepted++;
    else g.rejected++;
    if (r.ts < g.first) g.first = r.ts;
    if (r.ts > g.last) g.last = r.ts;
    g.triggers[r.trigger] = (g.triggers[r.trigger] ?? 0) + 1;
    groups.set(r.fingerprint.id, g);
  }
  const total = (g: FingerprintGroup): number => g.accepted + g.rejected;
  return { groups: [...groups.values()].sort((a, b) => total(b) - total(a) || (a.fingerprint.id < b.fingerprint.id ? -1 : 1)), withoutFingerprint };
}

/** The group whose id is `idOrPrefix` or, failing that, the only one it begins; otherwise why not. */
export function findGroup(groups: readonly FingerprintGroup[], idOrPrefix: string): FingerprintGroup | string {
  const exact = groups.find((g) => g.fingerprint.id === idOrPrefix);
  if (exact) return exact;
  const matches = groups.filter((g) => g.fingerprint.id.startsWith(idOrPrefix));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) return `no completion record carries a fingerprint ${idOrPrefix}`;
  return `${idOrPrefix} begins ${matches.length} fingerprints (${matches.map((g) => g.fingerprint.id).join(', ')}): give more of it`;
}

const HISTORY_NOTE = 'Recorded history: budgets, task instances and trial counts are not checked, as ordinary work has none of them; '
  + 'the two sides did different work, so a difference may come from the work as much as from the component. Only the acceptance rate is recorded.';

/** Two fingerprints' recorded acceptance, compared when the guard allows it. */
export function compareHistory(control: FingerprintGroup, treatment: FingerprintGroup): Comparison {
  const verdict = guardFingerprints(control.fingerprint, treatment.fingerprint);
  const reasons = [...verdict.reasons];
  if (control.fingerprint.id === treatment.fingerprint.id) reasons.push(`both sides are the same fingerprint ${control.fingerprint.id}`);
  for (const [name, g] of [['control', control], ['treatment', treatment]] as const) {
    if (g.accepted + g.rejected < 1) reasons.push(`the ${name} fingerprint ${g.fingerprint.id} has no recorded outcome`);
  }
  const sideOf = (g: FingerprintGroup) => ({ name: g.fingerprint.id, fingerprint: g.fingerprint, count: g.accepted + g.rejected });
  const base = {
    source: 'history' as const, control: sideOf(control), treatment: sideOf(treatment), reasons,
    component: verdict.differing.length === 1 ? verdict.differing[0]! : null, notes: [HISTORY_NOTE],
  };
  if (reasons.length > 0) return { ...base, refused: true, metrics: [], conclusions: [] };
  const acc = rateRow('acceptance', { successes: control.accepted, n: control.accepted + control.rejected }, { successes: treatment.accepted, n: treatment.accepted + treatment.rejected });
  const d = acc.difference!;
  const what = base.component ? `${base.component.component} (${base.component.control} → ${base.component.treatment})` : 'the treatment';
  const conclusion = d.noChange
    ? `Acceptance rate: the interval includes no change (${pts(d.estimate)} points, 95% interval ${pts(d.low)} to ${pts(d.high)}).`
    : `With ${what}, recorded work was accepted ${d.estimate > 0 ? 'more' : 'less'} often: ${pts(d.estimate)} points, 95% interval ${pts(d.low)} to ${pts(d.high)}.`;
  return { ...base, refused: false, metrics: [acc], conclusions: [conclusion] };
}

const pts = (v: number): string => `${v < 0 ? '-' : '+'}${Math.abs(v * 100).toFixed(1)}`;
