/**
 * Chooses where a state folder's ledger lives, from what the user set: `ALFRED_LEDGER_BACKEND`
 * (`files`, the default, or `postgres`) with the database of the team ledger (`ALFRED_LEDGER_URL`, or
 * the user setting alfred.ledgerUrl). Never from a repository's file: an agent that can write the
 * repository must not move its own budget to a database of its choosing. Without the variable nothing
 * of this runs beyond reading it, and pg is never loaded.
 */
import * as os from 'node:os';
import { offlineModeOf, readTeamConfig, type OfflineMode } from '../team/config';
import { PgConnection, retentionDaysOf } from '../team/pgConnection';
import { ledgerUrlOf, resolveLedgerUrl } from '../team/url';
import { useLedgerBackend, type LedgerBackend } from '../ledgerBackend';
import { PgLedgerBackend } from './pgLedgerBackend';
import { PgLedgerStore, type LedgerStore } from './pgLedgerStore';

export interface OpenLedgerOptions {
  stateDir: string;
  /** Its team file's [offline] says what each role does while the database cannot be reached. */
  workspaceFolder: string;
  env: NodeJS.ProcessEnv;
  /** The alfred.ledgerUrl setting; the environment wins. */
  setting?: string;
}

/** A store that cannot be reached: the user asked for a backend that cannot be used, and hears why. */
class Misconfigured implements LedgerStore {
  constructor(readonly misconfigured: string) {}
  transaction(): Promise<never> {
    return Promise.reject(new Error(this.misconfigured));
  }
  commitAt(): Promise<never> {
    return this.transaction();
  }
  connect(): Promise<void> {
    return this.transaction();
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** One connection per database in a process, however many state folders use it (the hook server). */
const stores = new Map<string, PgLedgerStore>();

/**
 * Whose ledger it is in the database: ALFRED_LEDGER_SCOPE (the same on a laptop and a CI runner: one
 * budget that follows the developer), else this machine's state folder.
 */
export function ledgerScopeOf(env: NodeJS.ProcessEnv, stateDir: string): string {
  return env.ALFRED_LEDGER_SCOPE?.trim() || `${env.ALFRED_MACHINE?.trim() || os.hostname()}:${stateDir}`;
}

/**
 * Chooses the state folder's backend for this process (ledgerBackend.ts) and returns it; undefined
 * for the files. A choice that cannot be used (an unknown backend, no URL, a literal password) fails
 * closed: every call is refused with the reason, and what happens anyway is kept in the folder.
 */
export function openLedgerBackend(o: OpenLedgerOptions): LedgerBackend | undefined {
  const choice = o.env.ALFRED_LEDGER_BACKEND?.trim().toLowerCase();
  if (!choice || choice === 'files') {
    useLedgerBackend(o.stateDir, undefined); // the process's latest choice for the folder counts
    return undefined;
  }
  const scope = ledgerScopeOf(o.env, o.stateDir);
  let store: LedgerStore;
  const config = readTeamConfig(o.workspaceFolder) ?? { team: 'default', budgets: [], offline: {}, problems: [] };
  let offline = (role: string): OfflineMode => offlineModeOf(config, role);
  try {
    if (choice !== 'postgres') throw new Error(`ALFRED_LEDGER_BACKEND=${choice} is not a ledger backend (files or postgres)`);
    const url = ledgerUrlOf(o.env, o.setting);
    if (!url) throw new Error('ALFRED_LEDGER_BACKEND=postgres needs the database: set ALFRED_LEDGER_URL=postgres://user@host:5432/database');
    const conn = resolveLedgerUrl(url, o.env);
    const shared = stores.get(conn.connectionString) ?? new PgLedgerStore(new PgConnection(conn, retentionDaysOf(o.env)));
    stores.set(conn.connectionString, shared);
    store = shared;
  } catch (err) {
    store = new Misconfigured((err as Error).message);
    offline = () => 'fail-closed';
  }
  const backend = new PgLedgerBackend({ store, scope, offlineMode: offline });
  useLedgerBackend(o.stateDir, backend);
  return backend;
}
