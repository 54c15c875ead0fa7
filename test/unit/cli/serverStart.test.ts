/**
 * A hook server started on demand, with real processes: the bash launcher as the extension writes it,
 * the built command line (copied, so that each build here has a folder of its own), and the servers
 * the launcher starts. With no server, the first call is answered in its own process and starts
 * one; later calls are answered by it; it leaves when idle; calls at once start one; a stale socket
 * and a squatted port are ignored; a server of another build gives way; the server decides no call
 * with the environment of the session that started it; a server that cannot start fails no call.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launcherScripts } from '../../../src/core/integrations/hooks/install';
import { NATIVE_MAGIC, PORT_FILE, SANDBOXED_PORT_FILE } from '../../../src/core/integrations/hooks/nativeProtocol';
import { onDemandServerEnv } from '../../../src/cli/serverStart';

const ROOT = path.resolve(__dirname, '../../..');
const skip = process.platform !== 'linux' || !fs.existsSync('/bin/bash');
const FAST = /^alfred hook: answered by the hook server \(pid (\d+)\) on the launcher's fast path\n$/;
const IN_PROCESS = /no answer from the hook server \((ENOENT|ECONNREFUSED)\); running in this process\n$/;

let root = '';
let buildA = '';
let buildB = '';
const started: number[] = [];

/** A copy of the built command line in its own folder, with the built-in roles where it looks. */
function copyBuild(name: string): string {
  const dir = path.join(root, name);
  fs.cpSync(path.join(ROOT, 'dist', 'cli'), path.join(dir, 'dist', 'cli'), { recursive: true, filter: (f) => !f.endsWith('.map') });
  fs.symlinkSync(path.join(ROOT, 'roles'), path.join(dir, 'roles'));
  return path.join(dir, 'dist', 'cli', 'alfred.cjs');
}

interface Session {
  home: string;
  alfredHome: string;
  ws: string;
  env: NodeJS.ProcessEnv;
  launcher: string;
}

let sessions = 0;

/** A user of their own (home, workspace) whose launcher runs `cli`. */
function session(cli: string, extraEnv: NodeJS.ProcessEnv = {}): Session {
  const home = path.join(root, `home-${++sessions}`);
  const alfredHome = path.join(home, '.alfred');
  const ws = path.join(root, `ws-${sessions}`);
  fs.mkdirSync(ws, { recursive: true });
  const launcher = writeLauncher(home, cli);
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, ALFRED_SANDBOX: 'off', ALFRED_HOOK_DEBUG: '1', ALFRED_TEST_RUN: process.env.ALFRED_TEST_RUN, ...extraEnv };
  return { home, alfredHome, ws, env, launcher };
}

function writeLauncher(home: string, cli: string): string {
  const file = path.join(home, '.alfred', 'bin', 'alfred');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, launcherScripts(process.execPath, cli, { bash: true }).posix, { mode: 0o755 });
  return file;
}

interface Ran { code: number | null; stdout: string; stderr: string; pid?: number }

/**
 * `alfred hook PreToolUse` as an agent runs it: the launcher with the input on a socket, done when
 * its output closes (so a server that kept the hook's stdout open would hang the call here).
 */
function call(s: Session, input: string, extraEnv: NodeJS.ProcessEnv = {}, launcher = s.launcher): Promise<Ran> {
  const child = spawn(launcher, ['hook', 'PreToolUse'], { cwd: s.ws, env: { ...s.env, ...extraEnv } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdin.end(input);
  return new Promise((resolve) => child.on('close', (code) => {
    const pid = FAST.exec(stderr)?.[1];
    resolve({ code, stdout, stderr, ...(pid ? { pid: Number(pid) } : {}) });
  }));
}

const shellCall = (s: Session) => JSON.stringify({ hook_event_name: 'PreToolUse', cwd: s.ws, tool_name: 'run_in_terminal', tool_input: { command: 'ls' } });
const denied = (r: Ran) => /"permissionDecision":\s*"deny"/.test(r.stdout);

/** Pids of the `alfred serve` processes of the build whose entry is `cli` (Linux: /proc). */
function serversOf(cli: string): number[] {
  const pids: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const args = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (args[1] === cli && args[2] === 'serve') pids.push(Number(name));
    } catch { /* gone */ }
  }
  return pids;
}

const alive = (pid: number) => fs.existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));

/** Waits (up to 20 s: a loaded machine starts Node slowly) until `ready` holds. */
async function until(ready: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 20_000; !ready();) {
    if (Date.now() > deadline) assert.fail(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const portFileOf = (s: Session): string | undefined => {
  try { return fs.readFileSync(path.join(s.alfredHome, 'run', PORT_FILE), 'utf8'); } catch { return undefined; }
};

/** A call answered by a server, once one has published its port (`published`, by default any). */
async function servedCall(s: Session, input = shellCall(s), extraEnv: NodeJS.ProcessEnv = {}, published = (text: string) => text !== ''): Promise<Ran & { pid: number }> {
  await until(() => published(portFileOf(s) ?? ''), `a server in ${s.alfredHome}`);
  const r = await call(s, input, extraEnv);
  assert.ok(r.pid, `expected an answer from the server, got: ${r.stderr}`);
  started.push(r.pid);
  return r as Ran & { pid: number };
}

/** A request on the port the kernel sandbox shows (`{token}`: its token), as a nested agent's launcher sends it. */
async function fromSandbox(s: Session, head: string, body: string): Promise<string> {
  const [port, token] = fs.readFileSync(path.join(s.alfredHome, 'run', SANDBOXED_PORT_FILE), 'utf8').trim().split(' ');
  const request = `${head.replace('{token}', token!)}length ${Buffer.byteLength(body)}\n\n${body}`;
  return new Promise<string>((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(request));
    let text = '';
    socket.setEncoding('utf8').on('data', (d: string) => (text += d));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

/** The same call answered by the command line alone (no server asked, none started). */
const commandLine = (s: Session, input: string, extraEnv: NodeJS.ProcessEnv = {}) => call(s, input, { ...extraEnv, ALFRED_HOOK_SERVER: 'off' });

before(() => {
  if (skip) return;
  if (!fs.existsSync(path.join(ROOT, 'dist', 'cli', 'alfred.cjs'))) execFileSync(process.execPath, ['build.mjs'], { cwd: ROOT, stdio: 'ignore' });
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-ondemand-'));
  buildA = copyBuild('a');
  buildB = copyBuild('b');
});

after(() => {
  if (skip) return;
  // Every server these tests started: those left running are stopped here.
  for (const pid of new Set([...started, ...serversOf(buildA), ...serversOf(buildB)])) {
    try { process.kill(pid, 'SIGTERM'); } catch { /* gone */ }
  }
  fs.rmSync(root, { recursive: true, force: true });
});

describe('a hook server started on demand', { skip }, () => {
  it('the first call without a server is answered in its own process and starts one; the next is answered by it', async () => {
    const s = session(buildA);
    const input = shellCall(s);
    const first = await call(s, input);
    assert.equal(first.code, 0);
    assert.match(first.stderr, IN_PROCESS);
    const second = await servedCall(s);
    assert.equal(second.code, 0);
    assert.deepEqual(serversOf(buildA).filter((pid) => pid === second.pid), [second.pid]);
    // The same answer as the command line's.
    assert.equal(second.stdout, (await commandLine(s, input)).stdout);
    // Its own session and folder, none of the agent's: started in the home, with a clean environment.
    assert.equal(fs.readlinkSync(`/proc/${second.pid}/cwd`), s.alfredHome);
    const env = fs.readFileSync(`/proc/${second.pid}/environ`, 'utf8').split('\0').filter(Boolean).sort();
    assert.deepEqual(env, [`ALFRED_HOME=${s.alfredHome}`, `HOME=${s.home}`, `PATH=${process.env.PATH}`]);
    assert.equal(fs.existsSync(path.join(s.alfredHome, 'run', 'hook.starting')), false);
  });

  it('leaves after its idle time, taking its socket and port files along', async () => {
    const s = session(buildA, { ALFRED_HOOK_SERVER_IDLE: '1' });
    await call(s, shellCall(s));
    const { pid } = await servedCall(s);
    await until(() => !alive(pid), `server ${pid} to leave`);
    assert.deepEqual(fs.readdirSync(path.join(s.alfredHome, 'run')).filter((f) => f.startsWith('hook.')), []);
    // The next call starts another.
    assert.match((await call(s, shellCall(s))).stderr, IN_PROCESS);
    assert.notEqual((await servedCall(s)).pid, pid);
  });

  it('calls at once start one server', async () => {
    const s = session(buildA);
    const before = new Set(serversOf(buildA));
    const calls = await Promise.all(Array.from({ length: 4 }, () => call(s, shellCall(s))));
    for (const r of calls) assert.equal(r.code, 0);
    const { pid } = await servedCall(s);
    const mine = () => serversOf(buildA).filter((p) => !before.has(p));
    assert.deepEqual(mine(), [pid]);
  });

  it('two servers started at once: one answers, the other leaves', async () => {
    const s = session(buildA);
    const env = onDemandServerEnv(s.env, s.alfredHome, false);
    const serve = () => new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [buildA, 'serve', '--on-demand'], { env, cwd: s.alfredHome, stdio: 'ignore' });
      started.push(child.pid!);
      child.on('exit', (code) => resolve(code));
    });
    const exits = [serve(), serve()];
    const first = await Promise.race(exits);
    assert.equal(first, 1);
    const { pid } = await servedCall(s);
    assert.ok(started.includes(pid));
    assert.ok(alive(pid));
  });

  it('a stale socket and a port file whose port another process took are ignored', async () => {
    const s = session(buildA, { ALFRED_ROLE: 'reviewer' });
    const run = path.join(s.alfredHome, 'run');
    fs.mkdirSync(run, { recursive: true, mode: 0o700 });
    // A socket nobody listens on any more, as a killed server leaves it.
    const dead = net.createServer();
    await new Promise<void>((r) => dead.listen(path.join(run, 'hook.sock'), r));
    fs.linkSync(path.join(run, 'hook.sock'), path.join(run, 'kept.sock'));
    await new Promise<void>((r) => dead.close(() => r()));
    fs.renameSync(path.join(run, 'kept.sock'), path.join(run, 'hook.sock'));
    // A port file of a dead server, its port now held by a process that answers "allowed" (it cannot know the proof).
    const squatter = net.createServer((socket) => socket.end(`000 0000000001 ${'0'.repeat(64)} 0000000001\n\x1e`));
    await new Promise<void>((r) => squatter.listen(0, '127.0.0.1', r));
    const { port } = squatter.address() as net.AddressInfo;
    fs.writeFileSync(path.join(run, PORT_FILE), `${port} ${'a'.repeat(64)} ${'b'.repeat(64)}\n`, { mode: 0o600 });
    try {
      const first = await call(s, shellCall(s));
      assert.match(first.stderr, /no complete answer/);
      assert.match(first.stderr, /ECONNREFUSED/);
      assert.ok(denied(first), 'the reviewer runs no shell command');
      const second = await servedCall(s, shellCall(s), {}, (text) => text !== '' && text.split(' ')[0] !== String(port));
      assert.ok(denied(second));
    } finally {
      squatter.close();
    }
  });

  it('a server of another build gives way to one of the caller\'s build', async () => {
    const s = session(buildA);
    await call(s, shellCall(s));
    const { pid: a } = await servedCall(s);
    // The launcher rewritten for another install (an update moved the extension).
    writeLauncher(s.home, buildB);
    const refused = await call(s, shellCall(s));
    assert.equal(refused.code, 0);
    assert.match(refused.stderr, /this hook server runs another build of Alfred/);
    assert.match(refused.stderr, IN_PROCESS);
    await until(() => !alive(a), `server ${a} of the other build to leave`);
    const { pid: b } = await servedCall(s);
    assert.deepEqual(serversOf(buildB).filter((p) => p === b), [b]);
    // Rebuilt in place: the same paths, other files.
    fs.appendFileSync(path.join(path.dirname(buildB), 'alfred-hook.cjs'), '\n');
    const rebuilt = await call(s, shellCall(s));
    assert.match(rebuilt.stderr, /this hook server runs files of Alfred that changed since it started/);
    await until(() => !alive(b), `server ${b} of the old files to leave`);
    assert.notEqual((await servedCall(s)).pid, b);
  });

  it('decides no call with the environment of the session that started it', async () => {
    // Started by a reviewer's session (no shell) …
    const s = session(buildA);
    await call(s, shellCall(s), { ALFRED_ROLE: 'reviewer' });
    // … it answers another session (the default role, coder) as that session …
    const other = await servedCall(s);
    assert.equal(denied(other), false);
    assert.ok(denied(await servedCall(s, shellCall(s), { ALFRED_ROLE: 'reviewer' })));
    // … and a call from inside the kernel sandbox, decided with the server's own variables, not the reviewer's.
    const answer = await fromSandbox(s, `${NATIVE_MAGIC}{token}\nevent PreToolUse\ncwd ${s.ws}\n`, shellCall(s));
    assert.match(answer, /^000 /);
    assert.doesNotMatch(answer, /deny/);
  });

  it('a call from inside the sandbox naming another build or version is refused, and the server stays', async () => {
    const s = session(buildA);
    await call(s, shellCall(s));
    const { pid } = await servedCall(s);
    const otherBuild = await fromSandbox(s, `${NATIVE_MAGIC}{token}\nevent PreToolUse\ncwd ${s.ws}\nruntime ${process.execPath}\ncli ${buildB}\n`, shellCall(s));
    assert.equal(otherBuild, 'fallback the hook server could not answer (this hook server runs another build of Alfred)\n');
    const otherVersion = await fromSandbox(s, `alfred-hook 6 {token}\nevent PreToolUse\ncwd ${s.ws}\n`, shellCall(s));
    assert.equal(otherVersion, 'fallback not a request from the launcher\n');
    assert.equal((await servedCall(s)).pid, pid);
    assert.ok(alive(pid));
  });

  it('a server that cannot start fails no call: each is answered in its own process', async () => {
    // A home so deep that no socket path there fits (108 bytes): the server cannot listen.
    const s = session(buildA, { ALFRED_HOME: path.join(root, 'deep', 'x'.repeat(120)) });
    for (let i = 0; i < 2; i++) {
      const r = await call(s, shellCall(s), { ALFRED_ROLE: 'reviewer' });
      assert.equal(r.code, 0);
      assert.match(r.stderr, IN_PROCESS);
      assert.ok(denied(r));
    }
  });
});
