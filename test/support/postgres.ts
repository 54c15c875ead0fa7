/**
 * A private PostgreSQL server for a test file: `initdb` into a temporary folder, started on a free
 * loopback port with its Unix socket in that folder, removed by `stop()`. Debian's postgresql
 * (scripts/lib/install.mjs ensures it). PostgreSQL refuses to run as root, so under root the server
 * runs as the `postgres` system user (or `nobody`) through `runuser`, its folder handed to that user
 * (see `asUser` for containers whose /dev/null that user cannot write).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';

/** The password of the server's `alfred` user; TCP connections must give it (scram-sha-256). */
export const PG_TEST_PASSWORD = 'alfred-test-password';

/**
 * One statement as the server's `alfred` user, over a connection of its own: the rows. `url` is the
 * server's (no password: the test password is put in), or one whose password is `$TEST_PG_PASSWORD`,
 * as the tests hand Alfred through its environment.
 */
export async function pgRows<T extends Record<string, unknown>>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const withPassword = url.includes('$TEST_PG_PASSWORD') ? url.replace('$TEST_PG_PASSWORD', PG_TEST_PASSWORD) : url.replace('alfred@', `alfred:${PG_TEST_PASSWORD}@`);
  const c = new Client({ connectionString: withPassword });
  await c.connect();
  try {
    return (await c.query<T>(text, params)).rows;
  } finally {
    await c.end();
  }
}

export interface PgServer {
  /** `postgres://alfred@127.0.0.1:PORT/alfred`: no password in it, as Alfred requires. */
  url: string;
  port: number;
  /** The folder that holds the data folder, the socket and the server's log. */
  dir: string;
  /** Stops the server (fast shutdown), keeping its data, to simulate an outage. */
  halt(): void;
  /** Starts it again on the same port after `halt()`. */
  start(): void;
  /** Stops the server and removes its folder. */
  stop(): void;
}

/** Where Debian keeps the server's binaries; the newest installed major wins. */
export function pgBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  const majors = fs.existsSync(root) ? fs.readdirSync(root).filter((d) => /^\d+$/.test(d)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const m of majors) if (fs.existsSync(path.join(root, m, 'bin', 'pg_ctl'))) return path.join(root, m, 'bin');
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** The unprivileged user to run the server as when the tests run as root. */
function serverUser(): { name: string; uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    const r = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    if (r.status !== 0) continue;
    const uid = Number(r.stdout.trim());
    const gid = Number(spawnSync('id', ['-g', name], { encoding: 'utf8' }).stdout.trim());
    return { name, uid, gid };
  }
  throw new Error('the tests run as root and there is neither a postgres nor a nobody user to run PostgreSQL as');
}

/**
 * Runs a command as `name` through runuser. Some containers give /dev/null mode 0644, which
 * PostgreSQL's tools cannot write as another user: then the command runs in a bubblewrap mount
 * namespace where a null device node of mode 0666, made in `dir`, stands in for /dev/null.
 */
function asUser(name: string, dir: string): (cmd: string, args: string[]) => [string, string[]] {
  const direct = spawnSync('runuser', ['-u', name, '--', 'sh', '-c', ': > /dev/null']).status === 0;
  if (direct) return (cmd, args) => ['runuser', ['-u', name, '--', cmd, ...args]];
  const node = path.join(dir, 'null');
  execFileSync('mknod', ['-m', '666', node, 'c', '1', '3']);
  return (cmd, args) => ['bwrap', ['--dev-bind', '/', '/', '--dev-bind', node, '/dev/null', '--', 'runuser', '-u', name, '--', cmd, ...args]];
}

/**
 * `durable`: fsync and synchronous commits on, as a team's server runs (for the benchmark); the
 * tests throw their data away and run without.
 */
export async function startPostgres({ durable = false }: { durable?: boolean } = {}): Promise<PgServer> {
  const bin = pgBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (Debian package postgresql: run npm test once, or apt-get install postgresql)');
  const user = serverUser();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-pg-'));
  const data = path.join(dir, 'data');
  const pwfile = path.join(dir, 'pw');
  fs.writeFileSync(pwfile, PG_TEST_PASSWORD + '\n', { mode: 0o600 });
  if (user) execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, dir]);
  const wrap = user ? asUser(user.name, dir) : (cmd: string, args: string[]): [string, string[]] => [cmd, args];
  const run = (cmd: string, args: string[]): void => {
    const [file, argv] = wrap(cmd, args);
    const r = spawnSync(file, argv, { encoding: 'utf8', cwd: dir });
    if (r.status !== 0) throw new Error(`${path.basename(cmd)} failed (${r.status}): ${r.stderr || r.stdout}`);
  };
  try {
    run(path.join(bin, 'initdb'), ['-D', data, '-U', 'alfred', '--pwfile', pwfile, '--auth-local=trust', '--auth-host=scram-sha-256', '--no-sync', '-E', 'UTF8', '--locale=C']);
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const port = await freePort();
  // Durability off for the tests: their data is thrown away, and fsync would make every charge wait for the disk.
  const fast = durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off';
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200${fast}`;
  const start = (): void => run(path.join(bin, 'pg_ctl'), ['start', '-D', data, '-w', '-t', '30', '-l', path.join(dir, 'server.log'), '-o', opts]);
  const halt = (): void => run(path.join(bin, 'pg_ctl'), ['stop', '-D', data, '-m', 'fast', '-w']);
  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    process.off('exit', stop);
    try { halt(); } catch { /* already stopped, or never started */ }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  // A test process that dies before its after() hook must not leave a server running.
  process.on('exit', stop);
  try {
    start();
    run(path.join(bin, 'createdb'), ['-h', dir, '-p', String(port), '-U', 'alfred', 'alfred']);
  } catch (err) {
    stop();
    throw err;
  }
  return { url: `postgres://alfred@127.0.0.1:${port}/alfred`, port, dir, halt, start, stop };
}
