/**
 * The runaway guard (issue: budgets that count what agents really spend): an agent stuck in a loop
 * repeats one call, or alternates a few, burning its budget without progress. Each call gets a
 * fingerprint that ignores what does not change its meaning (whitespace in strings, the order of
 * keys); the ledger keeps the latest ones, and a call that would repeat the same call — or the same
 * cycle of two or three calls — more times in a row than the role allows is refused with a reason
 * the model can act on.
 */
import { inputShapeProblem } from './inputShape';
import { sha256Hex } from '../../base/crypto/sha256';

/** `max_repeated_calls` when a role does not set it; 0 turns the guard off. */
export const DEFAULT_MAX_REPEATED_CALLS = 12;
/** Fingerprints kept: enough to see a 3-call cycle repeated past any sane limit. */
export const MAX_RECENT_CALLS = 64;
const MAX_CYCLE = 3;

/** Keys sorted, strings with their whitespace collapsed: `{"b":1,"a":" x  y"}` and `{"a":"x y","b":1}` are one call. */
function canonical(value: unknown): unknown {
  if (typeof value === 'string') return value.trim().replace(/\s+/g, ' ');
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
  }
  return value;
}

/**
 * `refusedShape`: the caller checked the shape already; without it the shape is checked here. An
 * input the gate refuses for its shape is not walked (it is refused before this matters).
 */
export function callFingerprint(tool: string, input: unknown, refusedShape?: boolean): string {
  const refused = refusedShape ?? inputShapeProblem(input) !== undefined;
  const body = refused ? '(refused shape)' : JSON.stringify(canonical(input) ?? null);
  return sha256Hex(`${tool}\0${body}`).slice(0, 20);
}

export interface Repetition {
  /** Times in a row the cycle occurs, this call included. */
  count: number;
  /** Calls in the cycle: 1 (the same call), 2 or 3 (alternating). */
  cycle: number;
}

/** The longest run of a repeated cycle of 1 to 3 calls that ends with the last fingerprint of `sequence`. */
export function repetitionAtEnd(sequence: readonly string[]): Repetition {
  let best: Repetition = { count: 1, cycle: 1 };
  for (let k = 1; k <= MAX_CYCLE && k * 2 <= sequence.length; k++) {
    const tail = sequence.slice(-k);
    let count = 1;
    while (sequence.length >= k * (count + 1)) {
      const start = sequence.length - k * (count + 1);
      if (!tail.every((fp, i) => sequence[start + i] === fp)) break;
      count++;
    }
    if (count > best.count) best = { count, cycle: k };
  }
  return best;
}
