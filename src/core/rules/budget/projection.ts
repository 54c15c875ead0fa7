/**
 * Whether `@alfred` may send a model request: never one whose projected cost would take the role's
 * spend past its cost cap.
 *
 * "At most one request over the limit, ever" means: a request is sent only when spent + projected
 * ≤ cap, so @alfred's spend can pass the cap only through a request whose real usage exceeded its
 * projection (a longer answer than the output assumed, a provider's report above the count). That
 * request leaves the cost EXHAUSTED, and from then on every request is refused until a reset, a role
 * switch or a raised limit. (Spend that other agents add between this check and the charge is theirs.)
 */
import type { RoleLimits } from '../roles/types';
import { costOf, type ModelPrice } from './prices';
import { percentOf } from './status';

/**
 * Output tokens assumed for a request: the API gives no way to bound a request's output, so this is
 * a stated estimate (long for a chat answer or a tool call, so a projection rarely falls short).
 */
export const PROJECTED_OUTPUT_TOKENS = 4096;

/** Float noise (nine charges of $0.001 and one more add up to 0.010000000000000002) must not refuse a request that lands exactly on the cap. */
const EPSILON_USD = 1e-12;

export interface RequestProjectionInput {
  /** The role's cost so far (the ledger's). */
  spentUsd: number;
  limits: Pick<RoleLimits, 'maxCostUsd' | 'blockAtPercent'>;
  /** Input tokens the request will be charged for: counted, less tool results the tool path already charged. */
  inputTokens: number;
  /** Output tokens it may produce: its maximum when the request sets one, else PROJECTED_OUTPUT_TOKENS. */
  outputTokens: number;
  price: ModelPrice;
}

export interface RequestProjection {
  send: boolean;
  /** `exhausted`: the cost is already at or past the cap; `over-cap`: this request would take it there. */
  reason?: 'exhausted' | 'over-cap';
  projectedUsd: number;
  spentUsd: number;
  capUsd: number;
}

/** The cost at which the budget is EXHAUSTED: max_cost_usd at the default block_at_percent of 100. */
export function costCapUsd(limits: Pick<RoleLimits, 'maxCostUsd' | 'blockAtPercent'>): number {
  return (Math.max(0, limits.maxCostUsd) * limits.blockAtPercent) / 100;
}

const usd = (n: number): number => (Number.isFinite(n) && n > 0 ? n : 0);

export function projectRequest(input: RequestProjectionInput): RequestProjection {
  const spentUsd = usd(input.spentUsd);
  const capUsd = costCapUsd(input.limits);
  const projectedUsd = usd(costOf(usd(input.inputTokens), usd(input.outputTokens), input.price));
  const base = { projectedUsd, spentUsd, capUsd };
  // The same arithmetic as the budget's signal, so "refused" here and EXHAUSTED there agree.
  if (percentOf(spentUsd, input.limits.maxCostUsd) >= input.limits.blockAtPercent) return { send: false, reason: 'exhausted', ...base };
  if (spentUsd + projectedUsd > capUsd + EPSILON_USD) return { send: false, reason: 'over-cap', ...base };
  return { send: true, ...base };
}
