/**
 * The team ledger's SQL. A decision locks the rows of the budgets it falls under (`SELECT … FOR
 * UPDATE`, in key order so two decisions never wait on each other in a cycle), reads their spend,
 * refuses when one is exhausted, else inserts the charge and adds it to them: all in one
 * transaction. Charges are inserted once by id (`ON CONFLICT DO NOTHING`): a replay adds nothing.
 */
import type { Client, ClientConfig } from 'pg';
import type { Usage } from '../budget/types';
import { budgetPeriodKeyOf as keyOf, type BudgetPeriod } from './budgets';
import { migrate } from './migrate';
import type { TeamChargeRow, TeamEventRow } from './rows';

export type UsageByKey = Map<string, Usage>;

/**
 * An idle connection must not keep a one-shot process (`alfred hook`) alive: its socket is held
 * (ref) only while a transaction waits for the server. pg keeps the socket at `connection.stream`.
 */
function hold(client: Client, held: boolean): void {
  const stream = (client as unknown as { connection?: { stream?: { ref?: () => void; unref?: () => void } } }).connection?.stream;
  if (held) stream?.ref?.();
  else stream?.unref?.();
}

export interface SpendRow {
  user: string;
  role: string;
  model: string | null;
  charges: number;
  tokens: number;
  shell: number;
  costUsd: number;
}

/** Kept per process: the database's migrations checked once, however many clients it opens. */
const migrated = new Set<string>();

export class PgStore {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;

  constructor(private readonly config: Pick<ClientConfig, 'password'> & { connectionString: string }, private readonly retentionDays: number) {}

  private async open(): Promise<Client> {
    const { Client: PgClient } = await import('pg');
    const { password, ...config } = this.config;
    // pg lets a connection string's fields replace the config's, a missing password included: it goes
    // into the string, in memory only.
    const url = new URL(config.connectionString);
    if (typeof password === 'string') url.password = encodeURIComponent(password);
    const client = new PgClient({ connectionTimeoutMillis: 3000, application_name: 'alfred', ...config, connectionString: url.toString() });
    // An idle client whose server went away emits 'error'; unhandled, it would end the process.
    client.on('error', () => this.drop(client));
    try {
      await client.connect();
      if (!migrated.has(this.config.connectionString)) {
        await migrate(client);
        await this.retain(client);
        migrated.add(this.config.connectionString);
      }
      hold(client, false);
    } catch (err) {
      this.drop(client);
      throw err;
    }
    return client;
  }

  private drop(client: Client): void {
    if (this.client === client) this.client = undefined;
    void client.end().catch(() => undefined);
  }

  /** Connects (and migrates) unless connected. */
  async connect(): Promise<Client> {
    if (!this.client) {
      this.connecting ??= this.open().finally(() => (this.connecting = undefined));
      this.client = await this.connecting;
    }
    return this.client;
  }

  /** Runs `fn` in a transaction; any failure drops the connection so that the next call reconnects. */
  private async tx<T>(fn: (db: Client) => Promise<T>): Promise<T> {
    const db = await this.connect();
    hold(db, true);
    try {
      await db.query('BEGIN');
      const out = await fn(db);
      await db.query('COMMIT');
      return out;
    } catch (err) {
      this.drop(db);
      throw err;
    } finally {
      hold(db, false);
    }
  }

  /** Retention instead of rotation: events and charges older than the retention are deleted. */
  private async retain(db: Client): Promise<void> {
    const cutoff = `${this.retentionDays} days`;
    await db.query('DELETE FROM team_events WHERE ts < now() - $1::interval', [cutoff]);
    await db.query('DELETE FROM team_charges WHERE ts < now() - $1::interval', [cutoff]);
  }

  /** Locks the budgets' rows (created when missing) and reads their spend. */
  private async lockUsage(db: Client, budgets: readonly BudgetPeriod[], lock: boolean): Promise<UsageByKey> {
    const sorted = [...budgets].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1));
    const keys = sorted.map((b) => b.key);
    const starts = sorted.map((b) => b.periodStart);
    if (lock) {
      await db.query('INSERT INTO team_usage (budget, period_start) SELECT * FROM unnest($1::text[], $2::timestamptz[]) ON CONFLICT DO NOTHING', [keys, starts]);
    }
    const { rows } = await db.query<{ budget: string; period_start: Date; tokens: string; shell: string; cost_usd: string }>(
      `SELECT budget, period_start, tokens, shell, cost_usd FROM team_usage
       WHERE (budget, period_start) IN (SELECT * FROM unnest($1::text[], $2::timestamptz[]))
       ORDER BY budget, period_start${lock ? ' FOR UPDATE' : ''}`, [keys, starts]);
    const out: UsageByKey = new Map();
    for (const r of rows) {
      out.set(`${r.budget}@${r.period_start.toISOString()}`, { tokens: Number(r.tokens), shell: Number(r.shell), costUsd: Number(r.cost_usd) });
    }
    return out;
  }

  private async insertCharges(db: Client, rows: readonly TeamChargeRow[]): Promise<TeamChargeRow[]> {
    if (rows.length === 0) return [];
    const { rows: inserted } = await db.query<{ id: string }>(
      `INSERT INTO team_charges (id, ts, team, repository, role, user_id, machine, tags, model, tool, tokens, shell, cost_usd, budgets, offline)
       SELECT c.id, c.ts, c.team, c.repository, c.role, c.user_id, c.machine, c.tags, c.model, c.tool, c.tokens, c.shell, c.cost_usd, c.budgets, c.offline
       FROM jsonb_to_recordset($1::jsonb) AS c(id text, ts timestamptz, team text, repository text, role text, user_id text, machine text,
         tags text[], model text, tool text, tokens bigint, shell bigint, cost_usd numeric, budgets jsonb, offline boolean)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [JSON.stringify(rows.map((r) => ({
        id: r.id, ts: r.ts, team: r.team, repository: r.repository, role: r.role, user_id: r.user, machine: r.machine, tags: r.tags,
        model: r.model ?? null, tool: r.tool ?? null, tokens: Math.round(r.tokens), shell: Math.round(r.shell), cost_usd: r.costUsd,
        budgets: r.budgets, offline: r.offline === true,
      })))]);
    const ids = new Set(inserted.map((r) => r.id));
    return rows.filter((r) => ids.has(r.id));
  }

  /** Adds the inserted charges to their budgets' spend, one update per budget period, in key order. */
  private async addUsage(db: Client, charges: readonly TeamChargeRow[]): Promise<void> {
    const sums = new Map<string, { b: BudgetPeriod; u: Usage }>();
    for (const c of charges) {
      for (const b of c.budgets) {
        const s = sums.get(keyOf(b)) ?? { b, u: { tokens: 0, shell: 0, costUsd: 0 } };
        s.u.tokens += Math.round(c.tokens);
        s.u.shell += Math.round(c.shell);
        s.u.costUsd += c.costUsd;
        sums.set(keyOf(b), s);
      }
    }
    const list = [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, s]) => s);
    if (list.length === 0) return;
    await db.query(
      `INSERT INTO team_usage (budget, period_start, tokens, shell, cost_usd)
       SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::bigint[], $4::bigint[], $5::numeric[])
       ON CONFLICT (budget, period_start) DO UPDATE SET tokens = team_usage.tokens + EXCLUDED.tokens,
         shell = team_usage.shell + EXCLUDED.shell, cost_usd = team_usage.cost_usd + EXCLUDED.cost_usd`,
      [list.map((s) => s.b.key), list.map((s) => s.b.periodStart), list.map((s) => s.u.tokens), list.map((s) => s.u.shell), list.map((s) => s.u.costUsd)]);
  }

  /**
   * Decide-and-charge: `refuse` sees the budgets' spend under their row locks; when it returns a
   * refusal nothing is charged, else `charge` (if any) is inserted and added. Returns the spend after.
   */
  decide<R>(budgets: readonly BudgetPeriod[], charge: TeamChargeRow | undefined, refuse: (usage: UsageByKey) => R | undefined): Promise<{ refused?: R; usage: UsageByKey }> {
    return this.tx(async (db) => {
      const usage = await this.lockUsage(db, budgets, charge !== undefined);
      const refused = refuse(usage);
      if (refused !== undefined || !charge) return { refused, usage };
      const inserted = await this.insertCharges(db, [charge]);
      if (inserted.length) await this.addUsage(db, inserted);
      for (const b of budgets) {
        const u = usage.get(keyOf(b));
        if (u && inserted.length) { u.tokens += charge.tokens; u.shell += charge.shell; u.costUsd += charge.costUsd; }
      }
      return { usage };
    });
  }

  /** Charges that happened (each once, by id) and audit events, in one transaction. */
  settle(charges: readonly TeamChargeRow[], events: readonly TeamEventRow[]): Promise<number> {
    return this.tx(async (db) => {
      const inserted = await this.insertCharges(db, charges);
      await this.addUsage(db, inserted);
      if (events.length) {
        await db.query(
          `INSERT INTO team_events (id, ts, type, team, repository, user_id, machine, role, session, event)
           SELECT e.id, e.ts, e.type, e.team, e.repository, e.user_id, e.machine, e.role, e.session, e.event
           FROM jsonb_to_recordset($1::jsonb) AS e(id text, ts timestamptz, type text, team text, repository text, user_id text,
             machine text, role text, session text, event jsonb)
           ON CONFLICT (id) DO NOTHING`,
          [JSON.stringify(events.map((e) => ({ ...e, user_id: e.user })))]);
      }
      return inserted.length;
    });
  }

  /** The spend of budget periods, without locks (for display). */
  usage(budgets: readonly BudgetPeriod[]): Promise<UsageByKey> {
    return this.tx((db) => this.lockUsage(db, budgets, false));
  }

  /** The team's charges since `since`, per user, role and model. */
  spend(team: string, since: string): Promise<SpendRow[]> {
    return this.tx(async (db) => {
      const { rows } = await db.query<{ user_id: string; role: string; model: string | null; charges: string; tokens: string; shell: string; cost_usd: string }>(
        `SELECT user_id, role, model, count(*) AS charges, sum(tokens) AS tokens, sum(shell) AS shell, sum(cost_usd) AS cost_usd
         FROM team_charges WHERE team = $1 AND ts >= $2 GROUP BY user_id, role, model ORDER BY user_id, role, model NULLS FIRST`, [team, since]);
      return rows.map((r) => ({ user: r.user_id, role: r.role, model: r.model, charges: Number(r.charges), tokens: Number(r.tokens), shell: Number(r.shell), costUsd: Number(r.cost_usd) }));
    });
  }

  /** The team's latest events of the given types, newest first (the audit trail other windows show). */
  recentEvents(team: string, types: readonly string[], limit: number): Promise<TeamEventRow[]> {
    return this.tx(async (db) => {
      const { rows } = await db.query<{ id: string; ts: Date; type: string; team: string; repository: string; user_id: string; machine: string; role: string; session: string; event: TeamEventRow['event'] }>(
        'SELECT * FROM team_events WHERE team = $1 AND type = ANY($2::text[]) ORDER BY ts DESC, id LIMIT $3', [team, types, limit]);
      return rows.map((r) => ({ ...r, ts: r.ts.toISOString(), user: r.user_id }));
    });
  }

  async close(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    if (!c) return;
    hold(c, true); // ending waits for the server's goodbye
    await c.end().catch(() => undefined);
  }
}


