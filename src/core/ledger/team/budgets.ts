/** Which team budgets a charge falls under, and a budget's status and line. */
import { formatUsd } from '../../base/money';
import { percentOf, signalFor, worstSignal } from '../../rules/budget/status';
import type { Dimension, DimensionStatus, Signal, Usage } from '../../rules/budget/types';
import type { TeamBudget } from './config';
import type { TeamIdentity } from './identity';
import { periodStart } from './period';

/** The charge's who and what, as budgets filter on them. */
export interface ChargeScope extends TeamIdentity {
  role: string;
}

export function budgetsFor(budgets: readonly TeamBudget[], scope: ChargeScope): TeamBudget[] {
  return budgets.filter(({ match: m }) => (m.role === undefined || m.role === scope.role)
    && (m.repository === undefined || m.repository === scope.repository)
    && (m.user === undefined || m.user === scope.user)
    && (m.tag === undefined || scope.tags.includes(m.tag)));
}

/** A budget in one period, as stored: `team/name` and the period's start. */
export interface BudgetPeriod {
  key: string;
  periodStart: string;
}

/** One string per budget period, as the store's usage map is keyed. */
export const budgetPeriodKeyOf = (b: BudgetPeriod): string => `${b.key}@${b.periodStart}`;

export function budgetPeriod(team: string, b: TeamBudget, now: Date): BudgetPeriod {
  return { key: `${team}/${b.name}`, periodStart: periodStart(b.period, now).toISOString() };
}

export interface TeamBudgetStatus {
  team: string;
  name: string;
  period: TeamBudget['period'];
  periodStart: string;
  signal: Signal;
  /** Only the dimensions the budget limits. */
  dimensions: Partial<Record<Dimension, DimensionStatus>>;
  /** `Team[platform/reviewers month]: shell 10/10 (100%) → EXHAUSTED`. */
  line: string;
}

const int = (n: number): string => String(Math.round(n));
/** As the budget line writes money (money.ts: no grouping, sub-cent spend visible). */
const usd = (n: number): string => formatUsd(n);

export function teamBudgetStatus(team: string, b: TeamBudget, usage: Usage, now: Date): TeamBudgetStatus {
  const dims: Partial<Record<Dimension, DimensionStatus>> = {};
  const parts: string[] = [];
  const add = (d: Dimension, used: number, limit: number | undefined, fmt: (n: number) => string): void => {
    if (limit === undefined) return;
    const percent = percentOf(used, limit);
    dims[d] = { used, limit, percent, signal: signalFor(percent, b.warnAtPercent, b.blockAtPercent) };
    parts.push(`${d} ${fmt(used)}/${fmt(limit)} (${percent}%)`);
  };
  add('tokens', usage.tokens, b.limits.tokens, int);
  add('shell', usage.shell, b.limits.shell, int);
  add('cost', usage.costUsd, b.limits.costUsd, usd);
  const signal = worstSignal(Object.values(dims).map((d) => d.signal));
  return {
    team, name: b.name, period: b.period, periodStart: periodStart(b.period, now).toISOString(), signal, dimensions: dims,
    line: `Team[${team}/${b.name} ${b.period}]: ${parts.join(' | ')} → ${signal}`,
  };
}
