/**
 * The statistics of a comparison: a mean with its 95% interval — Wilson's score interval for rates,
 * a seeded percentile bootstrap for continuous metrics — and the difference treatment − control with
 * its interval (Newcombe's hybrid score interval for rates, the bootstrap otherwise). A difference
 * whose interval includes 0 is "no change". Seeded, so the same outcomes always give the same report.
 */

/** The standard normal quantile at 0.975: a two-sided 95% interval. */
export const Z95 = 1.959963984540054;
export const DEFAULT_RESAMPLES = 10_000;
export const DEFAULT_SEED = 15;

export interface Estimate {
  mean: number;
  low: number;
  high: number;
  /** How many values (trials) the estimate rests on. */
  n: number;
  /** For a rate: how many of the n were successes. */
  successes?: number;
}

export interface Difference {
  /** Treatment's mean − control's mean. */
  estimate: number;
  low: number;
  high: number;
  /** The interval includes 0: the data cannot tell the two apart. */
  noChange: boolean;
}

export interface BootstrapOptions {
  seed?: number;
  resamples?: number;
}

/** Wilson's score interval of `successes` out of `n` (null when n is 0: no rate at all). */
export function wilson(successes: number, n: number, z = Z95): Estimate | null {
  if (n <= 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { mean: p, low: clamp01(centre - half), high: clamp01(centre + half), n, successes };
}

/** Newcombe's hybrid score interval (his method 10) for the difference of two rates, from their Wilson intervals. */
export function rateDifference(treatment: Estimate, control: Estimate): Difference {
  const d = treatment.mean - control.mean;
  const low = d - Math.hypot(treatment.mean - treatment.low, control.high - control.mean);
  const high = d + Math.hypot(treatment.high - treatment.mean, control.mean - control.low);
  return difference(d, low, high);
}

/** The mean of `values` with a percentile-bootstrap 95% interval (null when there are no values). */
export function bootstrapMean(values: readonly number[], options: BootstrapOptions = {}): Estimate | null {
  if (values.length === 0) return null;
  const next = seededRandom(options.seed ?? DEFAULT_SEED);
  const means = resampledMeans(values, options.resamples ?? DEFAULT_RESAMPLES, next).sort((a, b) => a - b);
  return { mean: mean(values), low: quantile(means, 0.025), high: quantile(means, 0.975), n: values.length };
}

/** Treatment − control means, each group resampled on its own, with the percentile interval of the difference. */
export function bootstrapDifference(treatment: readonly number[], control: readonly number[], options: BootstrapOptions = {}): Difference | null {
  if (treatment.length === 0 || control.length === 0) return null;
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const next = seededRandom(options.seed ?? DEFAULT_SEED);
  const t = resampledMeans(treatment, resamples, next);
  const c = resampledMeans(control, resamples, next);
  const diffs = t.map((v, i) => v - c[i]!).sort((a, b) => a - b);
  return difference(mean(treatment) - mean(control), quantile(diffs, 0.025), quantile(diffs, 0.975));
}

export function mean(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** The q-quantile of sorted values, linearly interpolated between order statistics (Hyndman and Fan's type 7). */
export function quantile(sorted: readonly number[], q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** mulberry32: a small, fast generator of uniform numbers in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function resampledMeans(values: readonly number[], resamples: number, next: () => number): number[] {
  const n = values.length;
  const out = new Array<number>(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor(next() * n)]!;
    out[r] = sum / n;
  }
  return out;
}

function difference(estimate: number, low: number, high: number): Difference {
  // A rounding error of the last bit must not turn an interval that touches 0 into a change.
  const eps = 1e-12;
  return { estimate, low, high, noChange: low <= eps && high >= -eps };
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}
