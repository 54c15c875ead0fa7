/**
 * Servers outside the sandbox that run what a command asks them to (tmux, screen, VS Code's
 * command-line socket; under strict the user's runtime folder and Docker) are hidden inside it: which
 * sockets are found when a command runs and which folders a plan hides, and, in a real bubblewrap,
 * that a command can no longer reach them while its own tmux still works.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { after, mock, test } from 'node:test';
import { rememberReads } from '../../../src/core/base/fs/keptReads';
import { commandServers, liveSockets, SHARED_MEMORY } from '../../../src/core/sandbox/commandServers';
import { planSandbox, sandboxArgv } from '../../../src/core/sandbox/index';
import { NO_SANDBOX, ORIGINAL, sandboxFixture, tempRoot } from './helpers';

const servers: net.Server[] = [];
after(() => servers.forEach((s) => s.close()));

/** A Unix socket listening at `p` (a stand-in for a session's or a daemon's). */
async function listening(p: string): Promise<string> {
  fs.mkdirSync(path.dirname(p), { recursive: true, mode: 0o700 });
  const server = net.createServer((s) => s.end());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(p, resolve));
  return p;
}

const TMUX = spawnSync('tmux', ['-V']).status === 0;

test('the sockets of tmux and screen sessions are found as they are now, in every sandbox; files beside them are not', async () => {
  const root = tempRoot();
  const tmuxFolder = path.join(root, 'tmux-tmp', 'tmux-1234');
  const screenFolder = path.join(root, 'screens');
  const tmux = await listening(path.join(tmuxFolder, 'default'));
  const screen = await listening(path.join(screenFolder, '4242.pts-0.host'));
  const fifo = path.join(screenFolder, '4343.pts-1.host');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  fs.writeFileSync(path.join(tmuxFolder, 'notes.txt'), 'not a socket\n');
  fs.mkdirSync(path.join(root, 'tmux-tmp', 'other'));
  const env = { TMUX_TMPDIR: path.join(root, 'tmux-tmp'), SCREENDIR: screenFolder, TMPDIR: path.join(root, 'none') };
  assert.deepEqual(liveSockets(env).filter((p) => p.startsWith(root)).sort(), [fifo, screen, tmux].sort());
  // A session that ends takes its socket with it: nothing is mounted where it was.
  await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
  assert.deepEqual(liveSockets(env).filter((p) => p.startsWith(root)).sort(), [fifo, tmux].sort());
  // The plan hides none of them (they come and go), and under strict only the runtime folder and Docker.
  for (const strict of [false, true]) assert.deepEqual(commandServers({ env: { ...env, XDG_RUNTIME_DIR: path.join(root, 'none') }, uid: 1234, kept: [], sharedMemory: [] }, strict), { files: [], folders: [] });
});

test('in a long-lived process the sockets found are kept while their folders are unchanged; a session made or ended is seen at the next call', async () => {
  rememberReads(true, 50);
  try {
    const root = tempRoot();
    const tmuxFolder = path.join(root, 'tmux-tmp', 'tmux-1234');
    const first = await listening(path.join(tmuxFolder, 'default'));
    const env = { TMUX_TMPDIR: path.join(root, 'tmux-tmp'), SCREENDIR: path.join(root, 'screens'), TMPDIR: path.join(root, 'tmp') };
    fs.mkdirSync(env.TMPDIR);
    const found = () => liveSockets(env).filter((p) => p.startsWith(root)).sort();
    await new Promise((resolve) => setTimeout(resolve, 60)); // past the racy window the test gives keptReads
    assert.deepEqual(found(), [first]);
    const listings = mock.method(fs, 'readdirSync');
    try {
      assert.deepEqual(found(), [first]);
      // Only this test's folders: /tmp is looked at too, and other processes on the machine change it.
      const ours = listings.mock.calls.filter((c) => String(c.arguments[0]).startsWith(root));
      assert.equal(ours.length, 0, 'nothing listed again while the folders are unchanged');
    } finally {
      listings.mock.restore();
    }
    const second = await listening(path.join(tmuxFolder, 'work'));
    const editor = await listening(path.join(env.TMPDIR, 'vscode-ipc-1.sock'));
    assert.deepEqual(found(), [editor, first, second].sort());
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    assert.deepEqual(found(), [first, second].sort(), 'a socket gone with its window');
  } finally {
    rememberReads(false);
  }
});

test('under strict, the user\'s runtime folder is emptied and Docker\'s socket hidden; never over the workspace', async () => {
  const root = tempRoot();
  const runtime = path.join(root, 'run-user');
  await listening(path.join(runtime, 'bus'));
  const docker = await listening(path.join(root, 'docker', 'docker.sock'));
  const env = { XDG_RUNTIME_DIR: runtime, DOCKER_HOST: `unix://${docker}`, TMUX_TMPDIR: path.join(root, 'none') };
  const ws = path.join(root, 'ws');
  assert.deepEqual(commandServers({ env, uid: 1234, kept: [ws], sharedMemory: [] }, true), { files: [docker], folders: [runtime] });
  assert.deepEqual(commandServers({ env, uid: 1234, kept: [ws], sharedMemory: [] }, false), { files: [], folders: [] });
  // A workspace inside the runtime folder stays seen: the folder is not emptied.
  assert.deepEqual(commandServers({ env, uid: 1234, kept: [path.join(runtime, 'ws')], sharedMemory: [] }, true), { files: [docker], folders: [] });
});

test('under strict, the shared memory\'s folders are the command\'s own, by their real paths, where they are folders; never over the workspace', () => {
  const root = tempRoot();
  const shm = path.join(root, 'run', 'shm');
  fs.mkdirSync(shm, { recursive: true });
  fs.mkdirSync(path.join(root, 'dev'));
  // As older systems have it: /dev/shm a link to /run/shm.
  fs.symlinkSync(shm, path.join(root, 'dev', 'shm'));
  fs.writeFileSync(path.join(root, 'dev', 'mqueue'), 'not a folder\n');
  const sharedMemory = [path.join(root, 'dev', 'shm'), path.join(root, 'dev', 'mqueue'), path.join(root, 'dev', 'missing')];
  const env = { XDG_RUNTIME_DIR: path.join(root, 'none') };
  assert.deepEqual(commandServers({ env, uid: 1234, kept: [], sharedMemory }, true), { files: [], folders: [shm] });
  assert.deepEqual(commandServers({ env, uid: 1234, kept: [], sharedMemory }, false), { files: [], folders: [] });
  assert.deepEqual(commandServers({ env, uid: 1234, kept: [path.join(shm, 'ws')], sharedMemory }, true), { files: [], folders: [] });
  // By default, the machine's own.
  assert.deepEqual(commandServers({ env, uid: 1234, kept: [] }, true).folders,
    SHARED_MEMORY.filter((p) => fs.existsSync(p) && fs.statSync(p).isDirectory()).map((p) => fs.realpathSync(p)));
});

test('under strict, the folders where local servers keep the keys that run code are shown empty: Jupyter\'s runtime folders, code-server\'s configuration; wherever the variables move them', () => {
  const root = tempRoot();
  const home = path.join(root, 'home');
  const made = (...parts: string[]) => {
    const dir = path.join(...parts);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  };
  const runtime = made(home, '.local', 'share', 'jupyter', 'runtime');
  const codeServer = made(home, '.config', 'code-server');
  const base = { XDG_RUNTIME_DIR: path.join(root, 'none') };
  assert.deepEqual(commandServers({ env: base, uid: 1234, kept: [], sharedMemory: [], home }, true), { files: [], folders: [runtime, codeServer] });
  assert.deepEqual(commandServers({ env: { ...base, HOME: home }, uid: 1234, kept: [], sharedMemory: [] }, true), { files: [], folders: [runtime, codeServer] }, 'the home from HOME');
  assert.deepEqual(commandServers({ env: base, uid: 1234, kept: [], sharedMemory: [], home }, false), { files: [], folders: [] });
  const moved = {
    ...base, JUPYTER_RUNTIME_DIR: made(root, 'jr'), JUPYTER_DATA_DIR: path.join(root, 'jd'), XDG_DATA_HOME: path.join(root, 'xd'), XDG_CONFIG_HOME: path.join(root, 'xc'),
  };
  made(root, 'jd', 'runtime');
  made(root, 'xc', 'code-server');
  assert.deepEqual(commandServers({ env: moved, uid: 1234, kept: [], sharedMemory: [], home }, true).folders,
    [path.join(root, 'jr'), path.join(root, 'jd', 'runtime'), path.join(root, 'xc', 'code-server')], 'where nothing is, nothing is hidden (XDG_DATA_HOME\'s)');
  // Within the runtime folder, already shown empty: not again. A relative variable is ignored, as the XDG specification says: the default stands.
  const runUser = made(root, 'run-user');
  made(runUser, 'jupyter');
  assert.deepEqual(commandServers({ env: { XDG_RUNTIME_DIR: runUser, JUPYTER_RUNTIME_DIR: path.join(runUser, 'jupyter'), XDG_CONFIG_HOME: 'rel' }, uid: 1234, kept: [], sharedMemory: [], home }, true).folders,
    [runUser, runtime, codeServer]);
});

test('a plan hides them after every other mount, in both forms of the command', async () => {
  const root = tempRoot();
  const env0 = { TMUX_TMPDIR: path.join(root, 'tmux-tmp') };
  const uid = process.getuid?.() ?? 0;
  const tmux = await listening(path.join(env0.TMUX_TMPDIR, `tmux-${uid}`, 'default'));
  const f = sandboxFixture();
  const plan = planSandbox({ role: { name: 'coder', sandbox: 'auto' }, workspaceFolder: f.ws, protectedGlobs: [], env: { ...f.env, ...env0 }, home: f.home, sandbox: { kind: 'bwrap', path: '/usr/bin/bwrap' } });
  assert.equal(plan.kind, 'sandboxed');
  if (plan.kind !== 'sandboxed') return;
  const argv = plan.argv('true', f.ws);
  const at = argv.indexOf(tmux);
  assert.deepEqual(argv.slice(at - 2, at + 1), ['--ro-bind-try', '/dev/null', tmux]);
  // After it, only other sockets covered (the editor's, found when the command runs), then the command.
  const rest = argv.slice(at + 1, argv.indexOf('--chdir'));
  assert.deepEqual(rest.filter((_, i) => i % 3 !== 2), rest.flatMap((_, i) => (i % 3 === 0 ? ['--ro-bind-try', '/dev/null'] : [])));
  assert.ok(plan.line('true', f.ws).includes(`--ro-bind-try /dev/null ${tmux} `));
  assert.deepEqual(sandboxArgv({ kind: 'bwrap', path: '/usr/bin/bwrap' }, { command: 'true', readOnly: [], hiddenFolders: ['/run/user/7'], hiddenFiles: ['/run/docker.sock'] }).slice(-9, -4),
    ['--tmpfs', '/run/user/7', '--ro-bind-try', '/dev/null', '/run/docker.sock']);
});

test('inside the sandbox, a tmux session outside cannot run a command, started before or after the plan, in either form; a tmux of the command\'s own still works', { skip: NO_SANDBOX || (!TMUX && 'tmux is not installed') }, () => {
  const f = sandboxFixture();
  const tmuxTmp = path.join(f.root, 'tmux-tmp');
  fs.mkdirSync(tmuxTmp);
  const env = { ...f.env, TMUX_TMPDIR: tmuxTmp, SHELL: '/bin/sh' };
  const tmux = (...args: string[]) => spawnSync('tmux', ['-L', 'outside', ...args], { env, encoding: 'utf8' });
  const target = path.join(f.ws, 'tests', 'x.test.js');
  // Planned before the session exists: its socket is found when the command runs.
  const plan = planSandbox({ role: { name: 'coder', sandbox: 'auto' }, workspaceFolder: f.ws, protectedGlobs: ['tests/**'], stateDir: f.stateDir, env, home: f.home });
  if (plan.kind !== 'sandboxed') throw new Error(plan.kind);
  assert.equal(tmux('new-session', '-d', 'sleep 120').status, 0);
  try {
    // A session of the command's own under a name of each run's: its socket outlives it (the sandbox's
    // processes end with the command, before tmux removes it), and the next command covers it.
    const command = (inside: string) => `echo hacked > ${target}; tmux -L outside run-shell "echo hacked > ${target}"; echo "outside: $?"; tmux -L ${inside} new-session -d "sleep 5" && tmux -L ${inside} list-sessions | wc -l`;
    const [file, ...args] = plan.argv(command('inside1'), f.ws);
    const byArgv = spawnSync(file!, args, { cwd: f.ws, env, encoding: 'utf8', timeout: 30_000 });
    const byLine = spawnSync('/bin/sh', ['-c', plan.line(command('inside2'))], { cwd: f.ws, env, encoding: 'utf8', timeout: 30_000 });
    for (const r of [byArgv, byLine]) {
      assert.match(r.stderr, /Read-only file system/);
      assert.match(r.stdout, /^outside: 1\n1\n$/, `${r.stdout}${r.stderr}`);
    }
    assert.equal(fs.readFileSync(target, 'utf8'), ORIGINAL);
    // Outside, the session is there and answers.
    assert.equal(tmux('run-shell', 'true').status, 0);
  } finally {
    tmux('kill-server');
  }
});

test('a socket gone before the command runs is not mounted over: nothing is left in its place', { skip: NO_SANDBOX }, async () => {
  const f = sandboxFixture();
  const tmuxTmp = path.join(f.root, 'tmux-tmp');
  const env = { ...f.env, TMUX_TMPDIR: tmuxTmp, SHELL: '/bin/sh' };
  const socket = await listening(path.join(tmuxTmp, `tmux-${process.getuid?.() ?? 0}`, 'gone'));
  const plan = planSandbox({ role: { name: 'coder', sandbox: 'auto' }, workspaceFolder: f.ws, protectedGlobs: [], stateDir: f.stateDir, env, home: f.home });
  if (plan.kind !== 'sandboxed') throw new Error(plan.kind);
  await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
  assert.equal(fs.existsSync(socket), false);
  const [file, ...args] = plan.argv('echo ran', f.ws);
  for (const r of [spawnSync(file!, args, { cwd: f.ws, env, encoding: 'utf8' }), spawnSync('/bin/sh', ['-c', plan.line('echo ran')], { cwd: f.ws, env, encoding: 'utf8' })]) {
    assert.equal(r.stdout, 'ran\n', r.stderr);
    assert.equal(fs.existsSync(socket), false);
  }
});

test('a command cannot reach a socket in the user\'s runtime folder: shown empty, and under strict the socket refused too', { skip: NO_SANDBOX }, async () => {
  const root = tempRoot('alfred-strict-');
  const ws = path.join(root, 'ws');
  const home = path.join(root, 'home');
  const temp = path.join(root, 'tmp');
  const runtime = path.join(root, 'run-user');
  for (const dir of [ws, home, temp]) fs.mkdirSync(dir, { recursive: true });
  const bus = await listening(path.join(runtime, 'bus'));
  const env = { ...process.env, HOME: home, ALFRED_HOME: path.join(home, '.alfred'), XDG_RUNTIME_DIR: runtime };
  // Whether the socket's file is there, then whether it answers: the runtime folder is shown empty
  // (D-Bus there would start a command outside: systemd-run --user), and under strict the seccomp filter (seccomp.ts) refuses the socket itself before the path counts.
  const reach = `${JSON.stringify(process.execPath)} -e "const p = process.argv[1]; process.stdout.write(require('fs').existsSync(p) + ' '); require('net').connect(p).on('connect', () => { console.log('reached'); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(0); })" ${bus}`;
  for (const [sandbox, expected] of [['auto', 'false ENOENT'], ['strict', 'false EPERM']] as const) {
    const plan = planSandbox({ role: { name: 'r', sandbox }, workspaceFolder: ws, protectedGlobs: [], env, home, tempFolders: [temp] });
    if (plan.kind !== 'sandboxed') throw new Error(plan.kind);
    const [file, ...args] = plan.argv(reach, ws);
    const r = spawnSync(file!, args, { cwd: ws, env, encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.stdout.trim(), expected, `${sandbox}: ${r.stdout}${r.stderr}`);
  }
});

test('a VS Code window\'s command-line socket cannot be reached from inside, in either form; another socket beside it can', { skip: NO_SANDBOX }, async () => {
  const f = sandboxFixture();
  const tmp = path.join(f.root, 'tmp');
  const editor = await listening(path.join(tmp, 'vscode-ipc-4f1c2d3e-0000-4000-8000-000000000000.sock'));
  const other = await listening(path.join(tmp, 'other.sock'));
  const env = { ...f.env, TMPDIR: tmp };
  // Made after the socket exists or not, the plan is the same: the sockets are found when the command runs.
  const plan = planSandbox({ role: { name: 'coder', sandbox: 'auto' }, workspaceFolder: f.ws, protectedGlobs: ['tests/**'], stateDir: f.stateDir, env, home: f.home });
  if (plan.kind !== 'sandboxed') throw new Error(plan.kind);
  const reach = (p: string) => `${JSON.stringify(process.execPath)} -e "require('net').connect(process.argv[1]).on('connect', () => { console.log('reached'); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(0); })" ${p}`;
  const command = `${reach(editor)}; ${reach(other)}`;
  const [file, ...args] = plan.argv(command, f.ws);
  const byArgv = spawnSync(file!, args, { cwd: f.ws, env, encoding: 'utf8', timeout: 30_000 });
  assert.equal(byArgv.stdout, 'ECONNREFUSED\nreached\n', byArgv.stderr);
  const line = plan.line(command);
  assert.match(line, /alfred-sandbox [0-9a-f]+ /);
  const byLine = spawnSync('/bin/sh', ['-c', line], { cwd: f.ws, env: { ...env, SHELL: '/bin/sh' }, encoding: 'utf8', timeout: 30_000 });
  assert.equal(byLine.stdout, 'ECONNREFUSED\nreached\n', byLine.stderr);
});

test('under strict, the connection tokens of VS Code\'s servers on a localhost port are covered: a remote window\'s server, code serve-web\'s; wherever the variables move them', () => {
  const root = tempRoot();
  const home = path.join(root, 'home');
  const file = (p: string) => {
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, 'a-token\n');
    return p;
  };
  const remote = file(path.join(home, '.vscode-server', '.0123abcd.token'));
  const insiders = file(path.join(home, '.vscode-server-insiders', '.4567ef.token'));
  file(path.join(home, '.vscode-server', '.0123abcd.log'));
  fs.mkdirSync(path.join(home, '.vscode-server', '.folder.token'));
  const serveWeb = file(path.join(home, '.vscode', 'cli', 'serve-web-token'));
  const env = { XDG_RUNTIME_DIR: path.join(root, 'none') };
  const hidden = (more: Record<string, string> = {}) => commandServers({ env: { ...env, ...more }, uid: 1234, kept: [], sharedMemory: [], home }, true);
  assert.deepEqual(hidden(), { files: [remote, insiders, serveWeb], folders: [] });
  assert.deepEqual(commandServers({ env, uid: 1234, kept: [], sharedMemory: [], home }, false), { files: [], folders: [] });
  const agent = file(path.join(root, 'agent', '.89ab.token'));
  const cli = file(path.join(root, 'cli', 'serve-web-token'));
  assert.deepEqual(hidden({ VSCODE_AGENT_FOLDER: path.dirname(agent), VSCODE_CLI_DATA_DIR: path.dirname(cli) }), { files: [agent, remote, insiders, cli], folders: [] });
});

test('under strict, nothing in Alfred\'s home is hidden, whatever a variable names there: its run folder shows a nested agent\'s hook the server', () => {
  const root = tempRoot();
  const home = path.join(root, 'home');
  const alfredHome = path.join(home, '.alfred');
  const run = path.join(alfredHome, 'run');
  fs.mkdirSync(run, { recursive: true });
  fs.writeFileSync(path.join(run, 'serve-web-token'), 'x\n');
  fs.writeFileSync(path.join(run, '.0123.token'), 'x\n');
  const env = { XDG_RUNTIME_DIR: run, JUPYTER_RUNTIME_DIR: alfredHome, VSCODE_AGENT_FOLDER: run, VSCODE_CLI_DATA_DIR: run };
  assert.deepEqual(commandServers({ env, uid: 1234, kept: [], sharedMemory: [], home, untouched: [alfredHome] }, true), { files: [], folders: [] });
  assert.deepEqual(commandServers({ env, uid: 1234, kept: [], sharedMemory: [], home }, true), { files: [], folders: [run, alfredHome] }, 'without it, they would be (the files within them)');
  assert.deepEqual(commandServers({ env: { ...env, XDG_RUNTIME_DIR: path.join(root, 'none'), JUPYTER_RUNTIME_DIR: path.join(root, 'none') }, uid: 1234, kept: [], sharedMemory: [], home }, true).files,
    [path.join(run, '.0123.token'), path.join(run, 'serve-web-token')], 'and the files alone');
});
