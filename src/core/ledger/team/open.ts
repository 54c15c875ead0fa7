/**
 * Opens the team ledger when the user opted in (ALFRED_LEDGER_URL or the alfred.ledgerUrl setting);
 * undefined otherwise, and then nothing of it runs: pg is not even loaded.
 */
import { readTeamConfig, type TeamConfig } from './config';
import { teamIdentity, type TeamIdentity } from './identity';
import { retentionDaysOf } from './pgConnection';
import { PgStore } from './pgStore';
import { TeamLedger } from './teamLedger';
import { ledgerUrlOf, resolveLedgerUrl } from './url';

export interface OpenTeamOptions {
  workspaceFolder: string;
  stateDir: string;
  env: NodeJS.ProcessEnv;
  /** The alfred.ledgerUrl setting; the environment wins. */
  setting?: string;
  /** For tests: the team file's contents and the identity, instead of reading them. */
  config?: TeamConfig;
  identity?: TeamIdentity;
  now?: () => Date;
}

/** Throws LedgerUrlError for a URL Alfred refuses (a literal password): the user must hear why. */
export function openTeamLedger(o: OpenTeamOptions): TeamLedger | undefined {
  const url = ledgerUrlOf(o.env, o.setting);
  if (!url) return undefined;
  const conn = resolveLedgerUrl(url, o.env);
  const store = new PgStore(conn, retentionDaysOf(o.env));
  const config = o.config ?? readTeamConfig(o.workspaceFolder) ?? { team: 'default', budgets: [], offline: {}, problems: [] };
  return new TeamLedger({
    store, config, identity: o.identity ?? teamIdentity(o.workspaceFolder, o.env), stateDir: o.stateDir, ...(o.now ? { now: o.now } : {}),
  });
}
