/** What the team ledger stores: a charge and an audit event, as rows (and as the offline file's lines). */
import type { AlfredEvent } from '../../base/events/types';
import type { BudgetPeriod } from './budgets';

export interface TeamChargeRow {
  /** Unique: the event's id, or a new one for a decision's shell charge. A replay never counts twice. */
  id: string;
  ts: string;
  team: string;
  repository: string;
  role: string;
  user: string;
  machine: string;
  tags: string[];
  model?: string;
  tool?: string;
  tokens: number;
  shell: number;
  costUsd: number;
  /** The budgets it counts against, decided when it was made. */
  budgets: BudgetPeriod[];
  /** Charged to the local ledger while the database was unreachable. */
  offline?: boolean;
}

export interface TeamEventRow {
  id: string;
  ts: string;
  type: string;
  team: string;
  repository: string;
  user: string;
  machine: string;
  role: string;
  session: string;
  event: AlfredEvent;
}
