/**
 * The failover state machine (docs/providers-and-models.md, Failover). A failed request of the active model (a
 * LanguageModelError or a transport error) counts against it, a cancel is neutral, a success clears
 * its count. At two in a row, the *next turn* starts on the next link of the chain that resolves
 * (never in the middle of a response); if none resolves, it stays and says so. The retired model's
 * count is cleared so it can come back later.
 */
import { linkKey, type ModelLink } from './profiles';

export const FAILURES_TO_FAIL_OVER = 2;

export type Outcome = 'success' | 'failure' | 'cancel';

export interface FailoverState {
  /** Index of the active link in the profile's chain. */
  active: number;
  /** Consecutive failures per link key. */
  failures: Readonly<Record<string, number>>;
}

export const initialFailover = (): FailoverState => ({ active: 0, failures: {} });

/** After a request of `link` ended: success clears its count, failure adds one, cancel changes nothing. */
export function recordOutcome(state: FailoverState, link: ModelLink, outcome: Outcome): FailoverState {
  const key = linkKey(link);
  if (outcome === 'cancel') return state;
  const failures = { ...state.failures };
  if (outcome === 'success') delete failures[key];
  else failures[key] = (failures[key] ?? 0) + 1;
  return { ...state, failures };
}

export interface Switch {
  from: number;
  to: number;
  /** `failures`: the active link failed twice in a row; `unavailable`: it no longer resolves. */
  reason: 'failures' | 'unavailable';
  failures: number;
}

export interface HealResult {
  state: FailoverState;
  switched?: Switch;
  /** The active link needs replacing but no other link resolves: it stays. */
  stuck?: { reason: Switch['reason']; failures: number };
}

/**
 * At the start of a turn: keeps the active link, or moves to the next one (wrapping around the chain)
 * for which `resolves(index)` is true.
 */
export function heal(state: FailoverState, chain: readonly ModelLink[], resolves: (index: number) => boolean): HealResult {
  if (chain.length === 0) return { state };
  const active = state.active >= 0 && state.active < chain.length ? state.active : 0;
  const current: FailoverState = active === state.active ? state : { ...state, active };
  const failures = current.failures[linkKey(chain[active]!)] ?? 0;
  const reason: Switch['reason'] | undefined = failures >= FAILURES_TO_FAIL_OVER ? 'failures' : !resolves(active) ? 'unavailable' : undefined;
  if (!reason) return { state: current };
  for (let step = 1; step < chain.length; step++) {
    const to = (active + step) % chain.length;
    if (!resolves(to)) continue;
    const cleared = { ...current.failures };
    delete cleared[linkKey(chain[active]!)];
    return { state: { active: to, failures: cleared }, switched: { from: active, to, reason, failures } };
  }
  return { state: current, stuck: { reason, failures } };
}

export type LinkHealth = 'active' | 'failing' | 'unavailable' | 'standby';

export interface LinkStatus {
  link: ModelLink;
  key: string;
  active: boolean;
  failures: number;
  /** Undefined when resolution was never checked. */
  available?: boolean;
  health: LinkHealth;
}

/** Each link's health for display: active, failing n/2, unavailable, standby. */
export function chainHealth(state: FailoverState, chain: readonly ModelLink[], unavailable: ReadonlySet<string> = new Set(), checked = false): LinkStatus[] {
  return chain.map((link, i) => {
    const key = linkKey(link);
    const failures = state.failures[key] ?? 0;
    const available = checked ? !unavailable.has(key) : undefined;
    const active = i === state.active;
    const health: LinkHealth = available === false ? 'unavailable' : failures > 0 ? 'failing' : active ? 'active' : 'standby';
    return { link, key, active, failures, ...(available === undefined ? {} : { available }), health };
  });
}
