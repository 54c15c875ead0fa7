/**
 * A verification outcome as text a person (or an agent told to keep working) can act on: the
 * verdict, each check's result, and the output of the checks that did not pass.
 */
import type { CheckResult } from './runner';
import { shortId } from './snapshot';
import { describeFailure, type VerifyOutcome } from './verify';

const MARK: Record<CheckResult['status'], string> = {
  passed: '✔', failed: '✖', 'timed out': '⏱', cancelled: '■', error: '✖', skipped: '–',
};

export function checkLine(c: CheckResult): string {
  const seconds = (c.durationMs / 1000).toFixed(1);
  const what = c.status === 'passed' ? 'passed' : describeFailure(c).replace(`"${c.name}" `, '');
  return `${MARK[c.status]} ${c.name}${c.required ? '' : ' (optional)'}: ${what} in ${seconds} s — ${c.run}`;
}

/** Everything but the output tails of passing checks; `maxTail` bounds each failing tail. */
export function formatOutcome(outcome: VerifyOutcome, maxTail = 4000): string {
  if (outcome.kind !== 'recorded') return outcome.reason;
  const { record } = outcome;
  const { before, after, stable } = record.snapshot;
  const lines = [
    outcome.reason,
    `snapshot ${shortId(after)}${after.git ? (after.kind === 'commit' ? ' (clean git tree)' : ` (${after.changedCount ?? 0} changed files)`) : ' (no git)'}${stable ? '' : `, was ${shortId(before)} before the checks`}`,
    ...record.checks.map(checkLine),
  ];
  for (const c of record.checks) {
    if (c.status === 'passed' || c.status === 'skipped' || c.outputTail === '') continue;
    const text = c.outputTail.length > maxTail ? `[…]\n${c.outputTail.slice(c.outputTail.length - maxTail)}` : c.outputTail;
    lines.push('', `── output of ${c.name} (last lines) ──`, text);
  }
  lines.push('', `record ${record.id}`);
  return lines.join('\n');
}
