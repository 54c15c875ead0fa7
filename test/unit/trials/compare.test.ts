import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareTrials, comparisonJson, renderComparison } from '../../../src/core/trials/compare';
import type { ConditionOutcomes } from '../../../src/core/trials/guard';
import type { TrialOutcome, TrialStatus } from '../../../src/core/trials/outcome';

const BASE = { alfred: '0.9.0', model: 'gpt-x', role: 'coder', handoff: 'off' };
const budget = { tokens: 1000, seconds: 60, usd: 0.5 };
const r4 = (x: number): number => Math.round(x * 10000) / 10000;

interface Trial { status: TrialStatus; dup: number; cost: number; escaped?: boolean | null }

function condition(name: string, handoff: string, trials: Trial[]): ConditionOutcomes {
  return {
    name,
    outcomes: trials.map((t, i) => ({
      condition: name, task: 'fix', trial: i + 1, instance: 'inst', suiteHash: 'h1',
      fingerprint: { id: `fp-${handoff}`, components: { ...BASE, handoff } }, status: t.status, escapedDefect: t.escaped ?? null,
      duplicatedToolActions: t.dup, tokens: 1000 + 100 * i, costUsd: t.cost, wallMs: 2000, budget,
      startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:00:02.000Z',
    } satisfies TrialOutcome)),
  };
}

const ok = (dup: number, cost = 0.01): Trial => ({ status: 'accepted', dup, cost });
const no = (dup: number, cost = 0.01): Trial => ({ status: 'rejected', dup, cost });

describe('compareTrials', () => {
  const control = condition('control', 'off', [ok(3), ok(2), no(4), no(3), { status: 'timeout', dup: 3, cost: 0.01 }]);
  const treatment = condition('handoff', 'on', [ok(0), ok(0), ok(0), ok(0), ok(0)]);

  it('reports acceptance with Wilson and Newcombe intervals and the counts behind them', () => {
    const c = compareTrials(control, treatment, { suite: 'trials' });
    assert.equal(c.refused, false);
    assert.deepEqual(c.component, { component: 'handoff', control: 'off', treatment: 'on' });
    const acc = c.metrics[0]!;
    assert.equal(acc.metric, 'acceptance');
    // 2 of 5 against 5 of 5, worked out by hand from the score formulas.
    assert.deepEqual([acc.control!.successes, acc.control!.n, r4(acc.control!.low), r4(acc.control!.high)], [2, 5, 0.1176, 0.7693]);
    assert.deepEqual([acc.treatment!.successes, acc.treatment!.n, r4(acc.treatment!.low), acc.treatment!.high], [5, 5, 0.5655, 1]);
    assert.deepEqual([r4(acc.difference!.estimate), r4(acc.difference!.low), r4(acc.difference!.high), acc.difference!.noChange], [0.6, 0.0298, 0.8824, false]);
    assert.equal(acc.verdict, 'the treatment is higher by 60.0 points (better)');
  });

  it('reports duplicated tool actions with a bootstrap interval of their difference', () => {
    const dup = compareTrials(control, treatment).metrics.find((m) => m.metric === 'duplicatedToolActions')!;
    assert.deepEqual([dup.control!.mean, dup.treatment!.mean, dup.control!.n, dup.difference!.estimate], [3, 0, 5, -3]);
    // The exact bootstrap over all 5^5 resamples puts the difference in [-3.6, -2.4].
    assert.ok(Math.abs(dup.difference!.low + 3.6) <= 0.2 && Math.abs(dup.difference!.high + 2.4) <= 0.2, JSON.stringify(dup.difference));
    assert.equal(dup.verdict, 'the treatment is lower by 3.00 (better)');
  });

  it('writes plain conclusions, and says when an interval includes no change', () => {
    const c = compareTrials(control, treatment);
    assert.equal(c.conclusions[0], 'Changing handoff (off → on) raised the acceptance rate from 40.0% to 100.0% (+60.0 points, 95% interval +3.0 to +88.2).');
    assert.match(c.conclusions[1]!, /^Duplicated tool actions per trial: the treatment is lower by 3\.00 \(better\), 95% interval -3\.\d\d to -2\.\d\d\.$/);
    assert.equal(c.metrics.find((m) => m.metric === 'tokens')!.verdict, 'the interval includes no change');
    assert.deepEqual(c.notes, [
      'Escaped defects are not measured: no accepted trial ran hidden checks.',
      'With 5 measured trials on the smaller side, the bootstrap intervals are too narrow (a percentile bootstrap needs about 10 or more): read them as rough.',
    ]);
    const ten = Array.from({ length: 10 }, (_, i) => ok(i % 3));
    assert.deepEqual(compareTrials(condition('control', 'off', ten), condition('t', 'on', ten)).notes, ['Escaped defects are not measured: no accepted trial ran hidden checks.']);
  });

  it('says a component costs more than it saves when it adds cost and no acceptance', () => {
    const c = compareTrials(condition('control', 'off', [ok(0, 0.01), no(0, 0.01), ok(0, 0.01)]), condition('t', 'on', [ok(0, 0.03), no(0, 0.03), ok(0, 0.03)]));
    assert.equal(c.conclusions.at(-1), 'Changing handoff (off → on) costs more than it saves: $0.0200 more per trial with no gain in acceptance.');
    assert.match(c.conclusions[0]!, /^Acceptance rate: the interval includes no change \(\+0\.0 points/);
  });

  it('counts escaped defects among accepted trials with hidden checks, and interrupted trials as failures only', () => {
    const c = compareTrials(
      condition('control', 'off', [{ status: 'accepted', dup: 0, cost: 0.01, escaped: true }, { status: 'interrupted', dup: 0, cost: 0 }]),
      condition('t', 'on', [{ status: 'accepted', dup: 0, cost: 0.01, escaped: false }, ok(0)]),
    );
    const esc = c.metrics.find((m) => m.metric === 'escapedDefects')!;
    assert.deepEqual([esc.control!.successes, esc.control!.n, esc.treatment!.successes, esc.treatment!.n], [1, 1, 0, 1]);
    assert.deepEqual([c.metrics[0]!.control!.successes, c.metrics[0]!.control!.n], [1, 2]);
    assert.equal(c.metrics.find((m) => m.metric === 'tokens')!.control!.n, 1);
    assert.deepEqual(c.notes, [
      '1 interrupted trial counts as a failure in the acceptance rate; having measured nothing, it is left out of the other metrics.',
      'With 1 measured trial on the smaller side, the bootstrap intervals are too narrow (a percentile bootstrap needs about 10 or more): read them as rough.',
    ]);
  });

  it('refuses with the guard\'s reasons and no metrics, in text and JSON', () => {
    const two = condition('t', 'on', [ok(0)]);
    two.outcomes = two.outcomes.map((o) => ({ ...o, fingerprint: { id: 'x', components: { ...BASE, handoff: 'on', model: 'gpt-y' } } }));
    const c = compareTrials(condition('control', 'off', [ok(1)]), two, { suite: 's' });
    assert.equal(c.refused, true);
    assert.deepEqual(c.metrics, []);
    assert.equal(renderComparison(c), [
      'Comparison of suite "s": control "control" (1) vs treatment "t" (1)',
      'Refused: this comparison would not be controlled.',
      '  - the two differ in 2 components, not one: handoff (off → on), model (gpt-x → gpt-y)',
    ].join('\n'));
    assert.deepEqual((JSON.parse(comparisonJson(c)) as { reasons: string[] }).reasons, c.reasons);
  });

  it('renders each metric with both sides, the counts and the difference', () => {
    const text = renderComparison(compareTrials(control, treatment, { suite: 'trials' }));
    assert.ok(text.includes([
      'Acceptance rate',
      '  control    40.0% (2 of 5), 95% interval 11.8% to 76.9%',
      '  treatment  100.0% (5 of 5), 95% interval 56.6% to 100.0%',
      '  difference +60.0 points, 95% interval +3.0 points to +88.2 points: the treatment is higher by 60.0 points (better)',
    ].join('\n')), text);
    assert.ok(text.startsWith('Comparison of suite "trials": control "control" (5) vs treatment "handoff" (5)\nComponent changed: handoff (off → on)\n'), text);
    assert.ok(text.includes('  control    3.00 (n = 5), 95% interval'), text);
  });
});
