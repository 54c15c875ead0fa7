/**
 * A real npm registry on loopback for tests: verdaccio, in this process, on a free port of 127.0.0.1,
 * with its storage in a new temporary folder and no uplink (nothing leaves the machine). Packages are
 * made in a temporary folder and published with the real `npm publish`; `npm deprecate` marks a
 * version. Verdaccio has no downloads API, so `startDownloadsServer` serves npm's
 * `/downloads/point/last-week/<name>` from counts the test gives; and as publish times are real,
 * `setPublishTimes` rewrites the `time` verdaccio stored for a package (to make one old).
 *
 *   const registry = await startTestRegistry();
 *   await registry.publish({ name: 'clean-mcp', version: '1.0.0', files: { 'index.js': '…' } });
 *   // fetch(`${registry.url}clean-mcp`) …
 *   await registry.close();
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { runServer } from 'verdaccio';

const run = promisify(execFile);

export interface TestPackage {
  name: string;
  version: string;
  /** Files by path inside the package; package.json is written from the other fields unless given here. */
  files?: Record<string, string>;
  scripts?: Record<string, string>;
  bin?: string | Record<string, string>;
  dependencies?: Record<string, string>;
  /** Files made executable (mode 0755) in the tarball. */
  executable?: string[];
}

export interface TestRegistry {
  /** Ends with `/`, as npm's registry setting does. */
  url: string;
  /** Verdaccio's storage folder. */
  storage: string;
  /** A userconfig with the registry and its token, for npm commands. */
  npmrc: string;
  /** Publishes each package with `npm publish` (one npm run for all). */
  publish(...pkgs: TestPackage[]): Promise<void>;
  deprecate(spec: string, message: string): Promise<void>;
  /** Replaces the stored publish times (`time[version]`, `created`, `modified`) of a package. */
  setPublishTimes(name: string, times: Record<string, string>): void;
  close(): Promise<void>;
}

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

async function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

function writePackage(dir: string, pkg: TestPackage): void {
  const manifest = { name: pkg.name, version: pkg.version, license: 'MIT', ...(pkg.scripts ? { scripts: pkg.scripts } : {}), ...(pkg.bin ? { bin: pkg.bin } : {}), ...(pkg.dependencies ? { dependencies: pkg.dependencies } : {}) };
  const files = { 'package.json': JSON.stringify(manifest, null, 2), ...pkg.files };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text, { mode: pkg.executable?.includes(file) ? 0o755 : 0o644 });
  }
}

export async function startTestRegistry(): Promise<TestRegistry> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-registry-'));
  const storage = path.join(root, 'storage');
  fs.mkdirSync(storage);
  const server = (await runServer({
    self_path: root,
    storage,
    uplinks: {},
    packages: { '**': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' } },
    auth: { htpasswd: { file: path.join(root, 'htpasswd'), max_users: 10 } },
    log: { type: 'stdout', format: 'pretty', level: 'fatal' },
    web: { enable: false },
  } as never)) as http.Server;
  const port = await listen(server);
  const url = `http://127.0.0.1:${port}/`;

  // npm adduser's request: the registry answers a token for the new user.
  const res = await fetch(`${url}-/user/org.couchdb.user:alfred`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'alfred', password: 'alfred-test-password' }),
  });
  const { token } = (await res.json()) as { token?: string };
  if (!token) throw new Error(`verdaccio gave no token (HTTP ${res.status})`);
  const npmrc = path.join(root, 'npmrc');
  fs.writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
  const npmEnv = { ...process.env, npm_config_userconfig: npmrc, npm_config_cache: path.join(root, 'npm-cache'), npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false' };
  const npm = (args: string[], cwd = root) => run('npm', [...args, '--registry', url], { cwd, env: npmEnv });

  return {
    url,
    storage,
    npmrc,
    async publish(...pkgs) {
      // One npm process publishes them all, as the workspaces of a throwaway root: npm's start is most of a publish's time.
      const dir = fs.mkdtempSync(path.join(root, 'publish-'));
      const workspaces = pkgs.map((pkg, i) => {
        writePackage(path.join(dir, `p${i}`), pkg);
        return `p${i}`;
      });
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'publish-root', private: true, workspaces }));
      await npm(['publish', '--workspaces', '--ignore-scripts', '--tag', 'latest'], dir);
    },
    async deprecate(spec, message) {
      await npm(['deprecate', spec, message]);
    },
    setPublishTimes(name, times) {
      const file = path.join(storage, name, 'package.json');
      const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { time?: Record<string, string> };
      doc.time = { ...doc.time, ...times };
      fs.writeFileSync(file, JSON.stringify(doc));
    },
    async close() {
      await close(server);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

export interface DownloadsServer {
  url: string;
  /** Paths asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** npm's downloads API (`/downloads/point/last-week/<name>` → `{ downloads, start, end, package }`) from fixed counts; 404 for others. */
export async function startDownloadsServer(counts: Record<string, number>): Promise<DownloadsServer> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    const name = decodeURIComponent((req.url ?? '').replace(/^\/downloads\/point\/last-week\//, ''));
    const n = counts[name];
    res.setHeader('content-type', 'application/json');
    if (n === undefined) {
      res.statusCode = 404;
      res.end(JSON.stringify({ error: `package ${name} not found` }));
      return;
    }
    res.end(JSON.stringify({ downloads: n, start: '2026-11-24', end: '2026-11-30', package: name }));
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}/`, requests, close: () => close(server) };
}
