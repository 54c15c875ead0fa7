/**
 * Where the team ledger lives: `ALFRED_LEDGER_URL` (or the `alfred.ledgerUrl` setting), a
 * `postgres://` URL whose password, if any, is a reference (`$VAR` / `${VAR}`), never the password
 * itself: the URL sits in settings files and environments that others read. Without one, pg reads
 * `PGPASSWORD` or `~/.pgpass` as libpq does.
 */

export class LedgerUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerUrlError';
  }
}

export interface LedgerConnection {
  /** The URL without its password, for pg and for display. */
  connectionString: string;
  /** Resolved from its reference; absent: PGPASSWORD or ~/.pgpass. */
  password?: string;
}

const HOW = 'put the password in an environment variable and write its name in its place '
  + '(postgres://alfred:$ALFRED_DB_PASSWORD@db.example:5432/alfred), or leave it out and use PGPASSWORD or ~/.pgpass';

/** The URL the user chose, the environment first; undefined: the team ledger is off. */
export function ledgerUrlOf(env: NodeJS.ProcessEnv, setting?: string): string | undefined {
  const url = env.ALFRED_LEDGER_URL?.trim() || setting?.trim();
  return url || undefined;
}

export function resolveLedgerUrl(raw: string, env: NodeJS.ProcessEnv): LedgerConnection {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new LedgerUrlError('The team ledger URL is not a URL: it looks like postgres://user@host:5432/database.');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new LedgerUrlError(`The team ledger URL must start with postgres:// (it starts with ${url.protocol}//).`);
  }
  const given = decodeURIComponent(url.password);
  url.password = '';
  const connectionString = url.toString();
  if (!given) return { connectionString };
  const ref = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))$/.exec(given);
  if (!ref) throw new LedgerUrlError(`The team ledger URL holds a literal password, which Alfred refuses: ${HOW}.`);
  const name = ref[1] ?? ref[2]!;
  const password = env[name];
  if (password === undefined || password === '') {
    throw new LedgerUrlError(`The team ledger URL takes its password from $${name}, which is not set in Alfred's environment.`);
  }
  return { connectionString, password };
}
