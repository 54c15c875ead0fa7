/**
 * The team ledger's SQL. A decision is one call of alfred_decide (migrations/002): it locks the rows
 * of the budgets it falls under (`SELECT … FOR UPDATE`, in key order so two decisions never wait on
 * each other in a cycle), refuses when one is exhausted, else inserts the charge and adds it to
 * them, in one statement and so one transaction, one round trip. Charges are inserted once by id
 * (`ON CONFLICT DO NOTHING`): a replay adds nothing.
 */
import type { Client, QueryResult } from 'pg';
import type { Usage } from '../../rules/budget/types';
import type { BudgetPeriod } from './budgets';
import { PgConnection, type PgConnectionConfig } from './pgConnection';
import type { TeamChargeRow, TeamEventRow } from './rows';

export type UsageByKey = Map<string, Usage>;

export interface SpendRow {
  user: string;
  role: string;
  model: string | null;
  charges: number;
  tokens: number;
  shell: number;
  costUsd: number;
}

/** A charge as a team_charges row, by column name. */
const chargeColumns = (r: TeamChargeRow) => ({
  id: r.id, ts: r.ts, team: r.team, repository: r.repository, role: r.role, user_id: r.user, machine: r.machine, tags: r.tags,
  model: r.model ?? null, tool: r.tool ?? null, tokens: Math.round(r.tokens), shell: Math.round(r.shell), cost_usd: r.costUsd,
  budgets: r.budgets, offline: r.offline === true,
});

/** A budget period with what alfred_decide needs to refuse at it (migrations/002_decide_function.sql). */
export interface DecideBudget extends BudgetPeriod {
  limits: { tokens?: number; shell?: number; costUsd?: number };
  blockAtPercent: number;
}

interface UsageRow { budget: string; period_start: Date; tokens: string; shell: string; cost_usd: string }

function usageOf(result: QueryResult<UsageRow>): UsageByKey {
  const out: UsageByKey = new Map();
  for (const r of result.rows) {
    out.set(`${r.budget}@${r.period_start.toISOString()}`, { tokens: Number(r.tokens), shell: Number(r.shell), costUsd: Number(r.cost_usd) });
  }
  return out;
}

/**
 * settle's statement, prepared once per connection: it inserts the charges ($1, a jsonb array) not
 * yet there (by id) and adds just those to their budgets' spend, one row per budget period in key
 * order; then the audit events ($2) not yet there. One statement, so one transaction. It selects
 * how many charges were new, as `n`.
 */
const SETTLE = `WITH c AS (
      INSERT INTO team_charges (id, ts, team, repository, role, user_id, machine, tags, model, tool, tokens, shell, cost_usd, budgets, offline)
      SELECT c.id, c.ts, c.team, c.repository, c.role, c.user_id, c.machine, c.tags, c.model, c.tool, c.tokens, c.shell, c.cost_usd, c.budgets, c.offline
      FROM jsonb_to_recordset($1::jsonb) AS c(id text, ts timestamptz, team text, repository text, role text, user_id text, machine text,
        tags text[], model text, tool text, tokens bigint, shell bigint, cost_usd numeric, budgets jsonb, offline boolean)
      ON CONFLICT (id) DO NOTHING RETURNING tokens, shell, cost_usd, budgets),
    s AS (
      SELECT b->>'key' AS budget, (b->>'periodStart')::timestamptz AS period_start, sum(c.tokens) AS tokens, sum(c.shell) AS shell, sum(c.cost_usd) AS cost_usd
      FROM c, jsonb_array_elements(c.budgets) AS b GROUP BY 1, 2 ORDER BY 1, 2),
    u AS (
      INSERT INTO team_usage (budget, period_start, tokens, shell, cost_usd) SELECT * FROM s
      ON CONFLICT (budget, period_start) DO UPDATE SET tokens = team_usage.tokens + EXCLUDED.tokens,
        shell = team_usage.shell + EXCLUDED.shell, cost_usd = team_usage.cost_usd + EXCLUDED.cost_usd),
    e AS (
      INSERT INTO team_events (id, ts, type, team, repository, user_id, machine, role, session, event)
      SELECT e.id, e.ts, e.type, e.team, e.repository, e.user_id, e.machine, e.role, e.session, e.event
      FROM jsonb_to_recordset($2::jsonb) AS e(id text, ts timestamptz, type text, team text, repository text, user_id text,
        machine text, role text, session text, event jsonb)
      ON CONFLICT (id) DO NOTHING)
  SELECT count(*) AS n FROM c`;

export class PgStore {
  private readonly db: PgConnection;

  constructor(config: PgConnectionConfig, retentionDays: number) {
    this.db = new PgConnection(config, retentionDays);
  }

  /** Connects (and migrates) unless connected. */
  async connect(): Promise<void> {
    await this.db.connect();
  }

  private session<T>(fn: (db: Client) => Promise<T>): Promise<T> {
    return this.db.session(fn);
  }

  /**
   * Decide-and-charge in one round trip: alfred_decide (migrations/002_decide_function.sql) locks
   * the budget periods' rows, refuses when one is exhausted (`mayRefuse`), else inserts the charge
   * once by id and adds it. Without a charge, the spend is only read, without locks.
   */
  decide(budgets: readonly DecideBudget[], charge: TeamChargeRow | undefined, mayRefuse: boolean): Promise<{ refused: boolean; usage: UsageByKey }> {
    return this.session(async (db) => {
      if (!charge) {
        const keys = JSON.stringify(budgets.map((b) => ({ k: b.key, p: b.periodStart })));
        const usage = usageOf(await db.query<UsageRow>(
          `SELECT budget, period_start, tokens, shell, cost_usd FROM team_usage
           WHERE (budget, period_start) IN (SELECT k, p FROM jsonb_to_recordset($1::jsonb) AS x(k text, p timestamptz))`, [keys]));
        return { refused: false, usage };
      }
      const arg = JSON.stringify(budgets.map((b) => ({
        key: b.key, periodStart: b.periodStart, block: b.blockAtPercent,
        ...(b.limits.tokens !== undefined ? { tokens: b.limits.tokens } : {}),
        ...(b.limits.shell !== undefined ? { shell: b.limits.shell } : {}),
        ...(b.limits.costUsd !== undefined ? { cost: b.limits.costUsd } : {}),
      })));
      const result = await db.query<UsageRow & { refused: boolean }>({
        name: 'alfred-decide', text: 'SELECT * FROM alfred_decide($1::jsonb, $2::jsonb, $3)', values: [arg, JSON.stringify(chargeColumns(charge)), mayRefuse],
      });
      return { refused: result.rows.some((r) => r.refused), usage: usageOf(result) };
    });
  }

  /** Charges that happened (each once, by id) and audit events: one statement, so one transaction. */
  settle(charges: readonly TeamChargeRow[], events: readonly TeamEventRow[]): Promise<number> {
    return this.session(async (db) => {
      const { rows: [r] } = await db.query<{ n: string }>({ name: 'alfred-settle', text: SETTLE, values: [
        JSON.stringify(charges.map(chargeColumns)), JSON.stringify(events.map((e) => ({ ...e, user_id: e.user }))),
      ] });
      return Number(r!.n);
    });
  }

  /** The spend of budget periods, without locks (for display). */
  async usage(budgets: readonly BudgetPeriod[]): Promise<UsageByKey> {
    return (await this.decide(budgets.map((b) => ({ ...b, limits: {}, blockAtPercent: 100 })), undefined, false)).usage;
  }

  /** The team's charges since `since`, per user, role and model. */
  spend(team: string, since: string): Promise<SpendRow[]> {
    return this.session(async (db) => {
      const { rows } = await db.query<{ user_id: string; role: string; model: string | null; charges: string; tokens: string; shell: string; cost_usd: string }>(
        `SELECT user_id, role, model, count(*) AS charges, sum(tokens) AS tokens, sum(shell) AS shell, sum(cost_usd) AS cost_usd
         FROM team_charges WHERE team = $1 AND ts >= $2 GROUP BY user_id, role, model ORDER BY user_id, role, model NULLS FIRST`, [team, since]);
      return rows.map((r) => ({ user: r.user_id, role: r.role, model: r.model, charges: Number(r.charges), tokens: Number(r.tokens), shell: Number(r.shell), costUsd: Number(r.cost_usd) }));
    });
  }

  /** The team's latest events of the given types, newest first (the audit trail other windows show). */
  recentEvents(team: string, types: readonly string[], limit: number): Promise<TeamEventRow[]> {
    return this.session(async (db) => {
      const { rows } = await db.query<{ id: string; ts: Date; type: string; team: string; repository: string; user_id: string; machine: string; role: string; session: string; event: TeamEventRow['event'] }>(
        'SELECT * FROM team_events WHERE team = $1 AND type = ANY($2::text[]) ORDER BY ts DESC, id LIMIT $3', [team, types, limit]);
      return rows.map((r) => ({ ...r, ts: r.ts.toISOString(), user: r.user_id }));
    });
  }

  close(): Promise<void> {
    return this.db.close();
  }
}


