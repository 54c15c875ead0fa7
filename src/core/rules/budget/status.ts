/** Budget arithmetic: percentages, signals, the status line and threshold crossings. */
import type { Role } from '../roles/types';
import { formatLimitUsd, formatUsd } from '../../base/money';
import { DIMENSIONS, type BudgetStatus, type Dimension, type DimensionStatus, type Signal, type Usage } from './types';

const RANK: Record<Signal, number> = { OK: 0, WARNING: 1, EXHAUSTED: 2 };

export function worstSignal(signals: Iterable<Signal>): Signal {
  let worst: Signal = 'OK';
  for (const s of signals) if (RANK[s] > RANK[worst]) worst = s;
  return worst;
}

/** Whole percent, rounded down. A limit of 0 reads 0% unused and 100% once anything is used. */
export function percentOf(used: number, limit: number): number {
  if (!(limit > 0)) return used > 0 ? 100 : 0;
  // The epsilon keeps float noise (0.29 * 100 = 28.999…) from losing a whole percent.
  return Math.max(0, Math.floor((used * 100) / limit + 1e-9));
}

export function signalFor(percent: number, warnAtPercent: number, blockAtPercent: number): Signal {
  if (percent >= blockAtPercent) return 'EXHAUSTED';
  if (percent >= warnAtPercent) return 'WARNING';
  return 'OK';
}

export function budgetStatus(role: Role, usage: Usage, costEstimated: boolean): BudgetStatus {
  const { limits } = role;
  const dim = (used: number, limit: number): DimensionStatus => {
    const percent = percentOf(used, limit);
    return { used, limit, percent, signal: signalFor(percent, limits.warnAtPercent, limits.blockAtPercent) };
  };
  const dimensions: Record<Dimension, DimensionStatus> = {
    tokens: dim(usage.tokens, limits.maxContextTokens),
    shell: dim(usage.shell, limits.maxShellInvocations),
    cost: dim(usage.costUsd, limits.maxCostUsd),
  };
  return {
    role: role.name,
    signal: worstSignal(DIMENSIONS.map((d) => dimensions[d].signal)),
    dimensions,
    costEstimated,
  };
}

const int = (n: number): string => String(Math.round(n));

/**
 * The one status line, exactly:
 * `Budget[coder]: tokens 50000/200000 (25%) | shell 5/100 (5%) | cost $0.50/$5.00 (10%) → OK`.
 * When some cost was priced with the fallback price, the cost pair is prefixed with `~`
 * (`cost ~$0.50/$5.00 (10%)`) so an estimate is never shown as exact; the limit never is.
 * Amounts are written as everywhere else (money.ts), without digit grouping: a sub-cent spend reads
 * `cost $0.0007/$5.00 (0%)`, the same `$<digits>.<digits>` form with more decimals.
 */
export function formatBudgetLine(status: BudgetStatus): string {
  const { tokens, shell, cost } = status.dimensions;
  return (
    `Budget[${status.role}]: ` +
    `tokens ${int(tokens.used)}/${int(tokens.limit)} (${tokens.percent}%) | ` +
    `shell ${int(shell.used)}/${int(shell.limit)} (${shell.percent}%) | ` +
    `cost ${formatUsd(cost.used, { estimated: status.costEstimated })}/${formatLimitUsd(cost.limit)} (${cost.percent}%) → ${status.signal}`
  );
}

export interface Crossing {
  dimension: Dimension;
  from: Signal;
  /** WARNING or EXHAUSTED. A jump from OK straight to EXHAUSTED is one crossing, to EXHAUSTED. */
  to: Signal;
}

export function signalsOf(status: BudgetStatus): Record<Dimension, Signal> {
  const { tokens, shell, cost } = status.dimensions;
  return { tokens: tokens.signal, shell: shell.signal, cost: cost.signal };
}

/** Dimensions whose signal rose from the last reported level (as kept in the ledger) to `after`. */
export function crossingsFrom(reported: Record<Dimension, Signal>, after: BudgetStatus): Crossing[] {
  const out: Crossing[] = [];
  for (const dimension of DIMENSIONS) {
    const from = reported[dimension] ?? 'OK';
    const to = after.dimensions[dimension].signal;
    if (RANK[to] > RANK[from]) out.push({ dimension, from, to });
  }
  return out;
}

/** Which dimensions newly crossed into WARNING or EXHAUSTED between two statuses. */
export function crossings(before: BudgetStatus, after: BudgetStatus): Crossing[] {
  return crossingsFrom(signalsOf(before), after);
}
