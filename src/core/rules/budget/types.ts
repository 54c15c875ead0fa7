/** Budgets: three dimensions per harness session (docs/roles-and-budgets.md, Budgets). */

export type Signal = 'OK' | 'WARNING' | 'EXHAUSTED';
export type Dimension = 'tokens' | 'shell' | 'cost';
export const DIMENSIONS: readonly Dimension[] = ['tokens', 'shell', 'cost'];

export interface Usage {
  tokens: number;
  shell: number;
  costUsd: number;
}

export interface DimensionStatus {
  used: number;
  limit: number;
  /** Rounded down to a whole percent; a limit of 0 with no use is 0%, with any use 100%+. */
  percent: number;
  signal: Signal;
}

export interface BudgetStatus {
  role: string;
  signal: Signal;
  dimensions: Record<Dimension, DimensionStatus>;
  /** True when some cost was priced with the fallback price (shown as estimated). */
  costEstimated: boolean;
}

/** A charge to apply to the budget. */
export interface Charge {
  tokens?: number;
  shell?: number;
  costUsd?: number;
  /** The cost was priced with the fallback price. */
  estimated?: boolean;
}
