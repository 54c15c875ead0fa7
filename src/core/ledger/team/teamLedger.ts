/**
 * The team ledger: team budgets decided and charged in PostgreSQL, and the team's audit trail.
 * The file ledger stays each workspace's own; this adds the budgets a team shares. A tool call the
 * personal budget allowed is decided here too (refused when any team budget it falls under is
 * exhausted), and every charge and event the file ledger wrote is copied here. When the database
 * cannot be reached, the role's offline mode decides: refuse (`fail-closed`) or go on with the
 * charges kept in the local ledger (`local`), replayed once it is back.
 */
import type { Usage } from '../../rules/budget/types';
import type { AlfredEvent } from '../../base/events/types';
import { budgetPeriod, budgetPeriodKeyOf, budgetsFor, teamBudgetStatus, type BudgetPeriod, type TeamBudgetStatus } from './budgets';
import { offlineModeOf, type TeamBudget, type TeamConfig } from './config';
import type { TeamIdentity } from './identity';
import { appendPending, hasPending, takePending, type PendingLine } from './pending';
import { periodStart, type Period } from './period';
import type { PgStore, SpendRow, UsageByKey } from './pgStore';
import type { TeamChargeRow, TeamEventRow } from './rows';
import { randomUuid } from '../../base/crypto/random';

export interface TeamCall {
  role: string;
  tool: string;
  /** Shell invocations this call costs (the gate's `shellCharge`). */
  shell: number;
  model?: string;
  /** ctx_session: never refused, as under the personal budget. */
  exempt: boolean;
}

export type TeamVerdict =
  | { allowed: true; statuses: TeamBudgetStatus[]; offline?: true }
  | { allowed: false; reason: string; statuses: TeamBudgetStatus[]; unreachable?: true };

export interface TeamLedgerOptions {
  store: PgStore;
  config: TeamConfig;
  identity: TeamIdentity;
  /** The state folder: the local ledger of offline charges lives there. */
  stateDir: string;
  now?: () => Date;
}

const ZERO: Usage = { tokens: 0, shell: 0, costUsd: 0 };
const afterThisTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const problemOf = (err: unknown): string => (err instanceof Error ? err.message : String(err)) || 'no answer';

export class TeamLedger {
  readonly team: string;
  private readonly now: () => Date;
  /** Copies under way (`settle`), in order: the next decision waits for them. */
  private copies: Promise<void> = Promise.resolve();

  constructor(private readonly o: TeamLedgerOptions) {
    this.team = o.config.team;
    this.now = o.now ?? (() => new Date());
  }

  private budgetsOf(role: string): TeamBudget[] {
    return budgetsFor(this.o.config.budgets, { ...this.o.identity, role });
  }

  /**
   * Whether the role's calls are decided here (`authorize`): only when a team budget applies to it.
   * Otherwise nothing here can refuse them, and their charges are copied after the call (`settle`).
   */
  decides(role: string): boolean {
    return this.budgetsOf(role).length > 0;
  }

  private statusesOf(budgets: readonly TeamBudget[], usage: UsageByKey, at: Date): TeamBudgetStatus[] {
    return budgets.map((b) => teamBudgetStatus(this.team, b, usage.get(budgetPeriodKeyOf(budgetPeriod(this.team, b, at))) ?? ZERO, at));
  }

  private row(role: string, at: Date, fields: Partial<TeamChargeRow> & { id: string }): TeamChargeRow {
    const { user, repository, machine, tags } = this.o.identity;
    const budgets: BudgetPeriod[] = this.budgetsOf(role).map((b) => budgetPeriod(this.team, b, at));
    return { ts: at.toISOString(), team: this.team, repository, role, user, machine, tags, tokens: 0, shell: 0, costUsd: 0, budgets, ...fields };
  }

  /** Replays the local ledger when it holds anything (a readdir when it does not). */
  async reconcile(): Promise<number> {
    if (!hasPending(this.o.stateDir)) return 0;
    const batch = takePending(this.o.stateDir);
    const added = await this.o.store.settle(batch.charges, batch.events);
    batch.done();
    return added;
  }

  /**
   * Connects and replays the local ledger, outside the state folder's lock: a connection's start
   * (authentication, migrations) is slow next to a decision, which then runs under the lock alone.
   * A database that cannot be reached is left for `authorize` to handle.
   */
  async prepare(): Promise<void> {
    try {
      await this.o.store.connect();
      await this.reconcile();
    } catch { /* offline: decided per role in authorize */ }
  }

  /** Decide-and-charge against the team budgets, for a call the personal budget allowed. */
  async authorize(call: TeamCall): Promise<TeamVerdict> {
    const at = this.now();
    const budgets = this.budgetsOf(call.role);
    const periods = budgets.map((b) => budgetPeriod(this.team, b, at));
    const charge = call.shell > 0 ? this.row(call.role, at, { id: randomUuid(), shell: call.shell, tool: call.tool, ...(call.model ? { model: call.model } : {}) }) : undefined;
    if (!charge && budgets.length === 0) return { allowed: true, statuses: [] };
    try {
      // The charges copied after earlier calls count before this one is decided.
      await this.copies;
      await this.reconcile();
      const decideBudgets = budgets.map((b, i) => ({ ...periods[i]!, limits: b.limits, blockAtPercent: b.blockAtPercent }));
      const { refused, usage } = await this.o.store.decide(decideBudgets, charge, !call.exempt);
      const statuses = this.statusesOf(budgets, usage, at);
      const exhausted = statuses.find((s) => s.signal === 'EXHAUSTED');
      // Without a charge nothing was locked or refused in the database: the spend read decides.
      const refusal = call.exempt ? undefined : refused ? exhausted ?? statuses[0] : charge ? undefined : exhausted;
      if (!refusal) return { allowed: true, statuses };
      return {
        allowed: false, statuses,
        reason: `The team budget ${refusal.name} is exhausted for this ${refusal.period}: ${refusal.line}. It resets at the next UTC ${refusal.period}; until then ask the team lead to raise it in .alfred/team.toml.`,
      };
    } catch (err) {
      if (call.exempt || offlineModeOf(this.o.config, call.role) === 'local') {
        if (charge) appendPending(this.o.stateDir, [{ charge: { ...charge, offline: true } }]);
        return { allowed: true, statuses: [], offline: true };
      }
      return {
        allowed: false, statuses: [], unreachable: true,
        reason: `The team ledger cannot be reached (${problemOf(err)}), and role ${call.role} fails closed when it is offline (.alfred/team.toml, [offline]). Try again once the database is back.`,
      };
    }
  }

  /**
   * Copies what the file ledger wrote: each event into the audit trail, and each charge in it to the
   * team budgets it falls under (a decision's shell charge excepted where `authorize` made it). Kept in
   * the local ledger when the database cannot be reached, whatever the offline mode: it happened.
   * The caller does not wait for it (`flush` does): these charges refuse nothing. It begins once the
   * call's turn is over, so that it never holds up the call's answer (the hook server's reply); the
   * next decision waits for it (`authorize`), so that it sees these charges. A pending copy keeps a
   * one-shot process alive until it is done.
   */
  settle(events: readonly AlfredEvent[], model?: string): void {
    if (events.length === 0) return;
    this.copies = this.copies.then(afterThisTurn).then(() => this.copy(events, model));
  }

  /** Waits for the copies under way (they never fail: what the database refused is in the local ledger). */
  flush(): Promise<void> {
    return this.copies;
  }

  private async copy(events: readonly AlfredEvent[], model?: string): Promise<void> {
    if (events.length === 0) return;
    const { user, repository, machine } = this.o.identity;
    const charges: TeamChargeRow[] = [];
    const rows: TeamEventRow[] = [];
    for (const e of events) {
      rows.push({ id: e.id, ts: e.ts, type: e.type, team: this.team, repository, user, machine, role: e.role, session: e.session, event: e });
      const c = e.charge as Partial<Usage> & { shell?: number } | undefined;
      if (!c || (e.type === 'ToolCall' && e.phase === 'decision' && this.decides(e.role))) continue;
      const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
      const tokens = n(c.tokens), shell = n(c.shell), costUsd = n(c.costUsd);
      if (tokens + shell + costUsd === 0) continue;
      const m = typeof e.model === 'string' ? e.model : model;
      charges.push(this.row(e.role, new Date(e.ts), {
        id: e.id, tokens, shell, costUsd, ...(m ? { model: m } : {}), ...(typeof e.tool === 'string' ? { tool: e.tool } : {}),
      }));
    }
    try {
      await this.reconcile();
      await this.o.store.settle(charges, rows);
    } catch {
      const lines: PendingLine[] = [...charges.map((charge) => ({ charge: { ...charge, offline: true } })), ...rows.map((event) => ({ event }))];
      try {
        appendPending(this.o.stateDir, lines);
      } catch { /* the state folder is gone: nothing left to keep them in */ }
    }
  }

  /** Why the database cannot be reached now; undefined when it can. */
  problem(): Promise<string | undefined> {
    return this.o.store.connect().then(() => undefined, problemOf);
  }

  /** The team budgets that apply to the role's calls (their names). */
  budgetNames(role: string): string[] {
    return this.budgetsOf(role).map((b) => b.name);
  }

  /** The team budgets the role's calls fall under, with their spend this period. */
  async statuses(role: string): Promise<TeamBudgetStatus[]> {
    const at = this.now();
    const budgets = this.budgetsOf(role);
    if (budgets.length === 0) return [];
    const usage = await this.o.store.usage(budgets.map((b) => budgetPeriod(this.team, b, at)));
    return this.statusesOf(budgets, usage, at);
  }

  /** The team's spend this period (UTC), per user, role and model. */
  spend(period: Period): Promise<SpendRow[]> {
    return this.o.store.spend(this.team, periodStart(period, this.now()).toISOString());
  }

  /** The team's latest refusals, any machine's: the dashboards of the whole team show them. */
  refusals(limit = 20): Promise<TeamEventRow[]> {
    return this.o.store.recentEvents(this.team, ['PolicyViolation'], limit);
  }

  async close(): Promise<void> {
    await this.flush();
    await this.o.store.close();
  }
}
