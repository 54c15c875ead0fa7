/**
 * The order in which one round of a benchmark runs its ways: shuffled afresh each round, the same
 * shuffle for the same round in every run. What ran just before shapes what runs next (the caches it
 * left warm or cold), and a fixed order rotated each round leaves every way behind the same other
 * way in all but one round of each cycle: in the hook benchmark, the launcher's bash started about
 * 0.3 ms later behind `node` than the instant server's did behind `bash`.
 * Plain JavaScript: bench/spawnTimer.mjs, run without a loader, uses it too.
 */

/**
 * @template T
 * @param {readonly T[]} ways
 * @param {number} round
 * @returns {T[]}
 */
export function roundOrder(ways, round) {
  const random = mulberry32(round + 1);
  const order = [...ways];
  // Fisher–Yates.
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** A small seeded generator of numbers in [0, 1) (mulberry32): a benchmark needs repeatable, not secret. */
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
