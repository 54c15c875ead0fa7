import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bootstrapDifference, bootstrapMean, quantile, rateDifference, seededRandom, wilson } from '../../../src/core/trials/stats';
import { rng } from '../../support/rng';

const r3 = (x: number): number => Math.round(x * 1000) / 1000;
const r4 = (x: number): number => Math.round(x * 10000) / 10000;

describe('wilson', () => {
  it('gives the textbook interval for 8 of 10: [0.490, 0.943]', () => {
    const e = wilson(8, 10)!;
    assert.deepEqual([e.mean, r3(e.low), r3(e.high), e.n, e.successes], [0.8, 0.49, 0.943, 10, 8]);
  });

  it('stays inside [0, 1] at the extremes, and gives nothing for no trials', () => {
    // Values worked out by hand from the score formula (z = 1.959964).
    assert.deepEqual([r4(wilson(0, 10)!.low), r4(wilson(0, 10)!.high)], [0, 0.2775]);
    assert.deepEqual([r4(wilson(10, 10)!.low), r4(wilson(10, 10)!.high)], [0.7225, 1]);
    assert.deepEqual([r4(wilson(3, 10)!.low), r4(wilson(3, 10)!.high)], [0.1078, 0.6032]);
    assert.deepEqual([r4(wilson(1, 1)!.low), wilson(1, 1)!.high], [0.2065, 1]);
    assert.equal(wilson(0, 0), null);
  });
});

describe('rateDifference (Newcombe)', () => {
  it("matches Newcombe's own example: 56/70 − 48/80 = 0.2, [0.0524, 0.3339]", () => {
    const d = rateDifference(wilson(56, 70)!, wilson(48, 80)!);
    assert.deepEqual([r4(d.estimate), r4(d.low), r4(d.high), d.noChange], [0.2, 0.0524, 0.3339, false]);
  });

  it('says no change when the interval includes 0', () => {
    const d = rateDifference(wilson(5, 10)!, wilson(4, 10)!);
    assert.deepEqual([r4(d.estimate), r4(d.low), r4(d.high), d.noChange], [0.1, -0.2898, 0.4509, true]);
    const big = rateDifference(wilson(9, 10)!, wilson(3, 10)!);
    assert.deepEqual([r4(big.low), r4(big.high), big.noChange], [0.1705, 0.809, false]);
  });
});

describe('bootstrap', () => {
  // The exact bootstrap distributions below were enumerated over every resample (4^4, and 4^4 × 3^3),
  // their 2.5% and 97.5% quantiles taken; 10,000 seeded resamples land within one step of them.
  it('brackets the mean of [1, 2, 3, 10] as the exact bootstrap does: [1.5, 8.0]', () => {
    const e = bootstrapMean([1, 2, 3, 10])!;
    assert.equal(e.mean, 4);
    assert.equal(e.n, 4);
    assert.ok(Math.abs(e.low - 1.5) <= 0.25, `low ${e.low}`);
    assert.ok(Math.abs(e.high - 8) <= 0.25, `high ${e.high}`);
  });

  it('gives the difference [1, 2, 3, 10] − [0, 0, 1] as 3.667 in about [0.917, 7.667], not "no change"', () => {
    const d = bootstrapDifference([1, 2, 3, 10], [0, 0, 1])!;
    assert.equal(r3(d.estimate), 3.667);
    assert.ok(Math.abs(d.low - 0.917) <= 0.25, `low ${d.low}`);
    assert.ok(Math.abs(d.high - 7.667) <= 0.25, `high ${d.high}`);
    assert.equal(d.noChange, false);
  });

  it('is the same for the same seed, and a constant sample has a zero-width interval', () => {
    assert.deepEqual(bootstrapMean([3, 1, 4, 1, 5], { seed: 7 }), bootstrapMean([3, 1, 4, 1, 5], { seed: 7 }));
    assert.deepEqual(bootstrapMean([2, 2, 2]), { mean: 2, low: 2, high: 2, n: 3 });
    const same = bootstrapDifference([2, 2], [2, 2, 2])!;
    assert.deepEqual(same, { estimate: 0, low: 0, high: 0, noChange: true });
    assert.equal(bootstrapMean([]), null);
    assert.equal(bootstrapDifference([1], []), null);
  });

  it('says no change for two samples from one population', () => {
    const d = bootstrapDifference([5, 7, 6, 8, 5, 7], [6, 8, 5, 7, 6, 6])!;
    assert.equal(d.noChange, true);
    assert.ok(d.low < 0 && d.high > 0);
  });
});

describe('quantile and seededRandom', () => {
  it('interpolates between order statistics', () => {
    assert.equal(quantile([10, 20, 30, 40, 50], 0.5), 30);
    assert.equal(quantile([10, 20, 30, 40, 50], 0.025), 11);
    assert.equal(quantile([10, 20, 30, 40, 50], 0.975), 49);
  });

  it("draws the same sequence as the tests' own mulberry32", () => {
    const a = seededRandom(42);
    const b = rng(42);
    for (let i = 0; i < 5; i++) assert.equal(a(), b());
  });
});
