/**
 * One connection to Alfred's database, shared by what keeps its data there (the team ledger,
 * pgStore.ts; the personal ledger, state/pgLedger): pg is loaded on the first connect only, the
 * migrations are checked and retention applied once per process, and an idle connection never keeps
 * a one-shot process (`alfred hook`) alive.
 */
import type { Client, ClientConfig } from 'pg';
import { migrate } from './migrate';

/**
 * An idle connection must not keep a one-shot process alive: its socket is held (ref) only while
 * some statement waits for the server, counted, as statements of several callers queue on the one
 * connection. pg keeps the socket at `connection.stream`.
 */
const holders = new WeakMap<Client, number>();
function hold(client: Client, held: boolean): void {
  const stream = (client as unknown as { connection?: { stream?: { ref?: () => void; unref?: () => void } } }).connection?.stream;
  const n = Math.max(0, (holders.get(client) ?? 0) + (held ? 1 : -1));
  holders.set(client, n);
  if (n > 0) stream?.ref?.();
  else stream?.unref?.();
}

/** Events and charges are kept this long (a month's budget needs its whole month). */
const DEFAULT_RETENTION_DAYS = 400;
const MIN_RETENTION_DAYS = 32;

/** ALFRED_LEDGER_RETENTION_DAYS, at least a month's budget long. */
export function retentionDaysOf(env: NodeJS.ProcessEnv): number {
  const days = Number(env.ALFRED_LEDGER_RETENTION_DAYS);
  return Number.isFinite(days) && days > 0 ? Math.max(MIN_RETENTION_DAYS, days) : DEFAULT_RETENTION_DAYS;
}

/** Kept per process: the database's migrations checked once, however many clients it opens. */
const migrated = new Set<string>();

export type PgConnectionConfig = Pick<ClientConfig, 'password'> & { connectionString: string };

export class PgConnection {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;

  constructor(private readonly config: PgConnectionConfig, private readonly retentionDays: number) {}

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

  /**
   * Retention instead of rotation: events and charges older than the retention are deleted, the
   * team's and the personal ledgers' alike (a ledger's current row stays: it is the budget now).
   */
  private async retain(db: Client): Promise<void> {
    await db.query(`WITH e AS (DELETE FROM team_events WHERE ts < now() - $1::interval),
      l AS (DELETE FROM alfred_ledger_events WHERE ts < now() - $1::interval)
      DELETE FROM team_charges WHERE ts < now() - $1::interval`, [`${this.retentionDays} days`]);
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

  /**
   * Runs `fn` on the connection (every statement of it one round trip to the server); any failure
   * drops the connection, which rolls back an open transaction, so that the next call reconnects.
   */
  async session<T>(fn: (db: Client) => Promise<T>): Promise<T> {
    const db = await this.connect();
    hold(db, true);
    try {
      return await fn(db);
    } catch (err) {
      this.drop(db);
      throw err;
    } finally {
      hold(db, false);
    }
  }

  async close(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    if (!c) return;
    hold(c, true); // ending waits for the server's goodbye
    await c.end().catch(() => undefined);
  }
}
