/**
 * The resident hook server (src/core/integrations/hooks/server.ts) and the `alfred` launcher's client
 * (src/cli/hookClient.ts): served answers are the command line's answers, the caller's role variables
 * count, a stale socket is taken over and a live one left alone, the client falls back to the
 * command line on any failure, and concurrent requests charge exactly.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readEvents } from '../../../../src/core/base/events/read';
import { openWorkspaceHarness } from '../../../../src/core/integrations/hooks/openWorkspace';
import { defaultHookSocketPath, startHookServer, type HookServer, type HookServerOptions } from '../../../../src/core/integrations/hooks/server';
import { forwardedEnv, HOOK_PROTOCOL_VERSION, type HookRequest, type HookResponse } from '../../../../src/core/integrations/hooks/serverProtocol';
import { readLedger } from '../../../../src/core/ledger/ledgerFormat';
import { stateDir } from '../../../../src/core/base/state/paths';
import { isolateEnv, newWorkspace, run } from '../../cli/helpers';

const env = isolateEnv();
// These tests compare the server's answers with the command line's across workspaces, about the
// transport; the sandbox's rewrite names each workspace, and the corpus covers it through the server.
before(() => { process.env.ALFRED_SANDBOX = 'off'; });
after(() => { delete process.env.ALFRED_SANDBOX; });
const ROOT = path.resolve(__dirname, '../../../..');
const BUILTIN_ROLES = path.join(ROOT, 'roles');
const CLI = path.join(ROOT, 'dist', 'cli', 'alfred.cjs');
const TIGHT = '[role]\nname = "tight"\n[limits]\nmax_context_tokens = 1000000\nmax_shell_invocations = 10\nmax_cost_usd = 100.0\n';

const open: HookServerOptions['openHarness'] = (folder, harnessEnv, cwd) =>
  openWorkspaceHarness(folder, { builtinRolesDir: BUILTIN_ROLES, version: 'test', env: harnessEnv, cwd });

async function listening(opts: Partial<HookServerOptions> = {}): Promise<HookServer> {
  const started = await startHookServer({ openHarness: open, ...opts });
  assert.equal(started.kind, 'listening');
  return (started as { server: HookServer }).server;
}

/** One request over the socket, as the launcher's client sends it. */
function ask(socketPath: string, request: Omit<HookRequest, 'v'> & { v?: number }): Promise<HookResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath, () => socket.write(`${JSON.stringify({ v: HOOK_PROTOCOL_VERSION, ...request })}\n`));
    let text = '';
    socket.setEncoding('utf8').on('data', (d: string) => (text += d));
    socket.on('end', () => resolve(JSON.parse(text) as HookResponse));
    socket.on('error', reject);
  });
}

/** As the launcher's client sends it: this process's forwarded variables, with `roleEnv`'s role variables. */
const request = (event: string, input: object, folder: string, roleEnv: HookRequest['env'] = {}) =>
  ({ event, stdin: JSON.stringify(input), processCwd: folder, env: { ...forwardedEnv(process.env), ...roleEnv } });

/** The same hook through the command line in this process (src/cli/main.ts), with `role` as ALFRED_ROLE. */
async function inProcess(event: string, input: object | string, role?: string) {
  if (role) process.env.ALFRED_ROLE = role;
  try {
    return await run(['hook', event], typeof input === 'string' ? input : JSON.stringify(input));
  } finally {
    delete process.env.ALFRED_ROLE;
  }
}

/** The built launcher as an agent runs it, asynchronously: the server answers from this process. */
function spawnCli(event: string, input: object, cwd: string, extraEnv: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI, 'hook', event], { cwd, encoding: 'utf8', env: { ...process.env, ALFRED_HOOK_DEBUG: '1', ...extraEnv } },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, stdout, stderr }));
    child.stdin!.end(JSON.stringify(input));
  });
}

/** A server that dies without closing leaves its socket file behind, with nobody listening. */
function leaveStaleSocket(socketPath: string): void {
  fs.mkdirSync(path.dirname(socketPath), { recursive: true });
  const r = spawnSync(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, 'SIGKILL'))`]);
  assert.equal(r.signal, 'SIGKILL', String(r.stderr));
  assert.ok(fs.statSync(socketPath).isSocket());
}

describe('the hook server answers as the command line does', () => {
  let server: HookServer;
  before(async () => { server = await listening(); });
  after(() => server.close());

  const cases: [string, string, (folder: string) => object, string | undefined][] = [
    ['a shell call under coder is allowed', 'PreToolUse', (cwd) => ({ hook_event_name: 'PreToolUse', cwd, tool_name: 'run_in_terminal', tool_input: { command: 'ls' } }), undefined],
    ['a shell call under reviewer is refused', 'PreToolUse', (cwd) => ({ hook_event_name: 'PreToolUse', cwd, tool_name: 'run_in_terminal', tool_input: { command: 'rm -rf build' } }), 'reviewer'],
    ['the Copilot CLI format, refused', 'preToolUse', (cwd) => ({ sessionId: 's', cwd, toolName: 'bash', toolArgs: '{"command":"ls"}' }), 'reviewer'],
    ['a read under reviewer is allowed', 'PreToolUse', (cwd) => ({ cwd, tool_name: 'read_file', tool_input: { filePath: 'a.ts' } }), 'reviewer'],
    ['a PostToolUse charge', 'PostToolUse', (cwd) => ({ cwd, tool_name: 'read_file', tool_response: 'some file text' }), undefined],
  ];
  for (const [name, event, input, role] of cases) {
    it(name, async () => {
      const served = newWorkspace(env.root);
      const local = newWorkspace(env.root);
      const answer = await ask(server.socketPath, request(event, input(served), served, role ? { ALFRED_ROLE: role } : {}));
      const expected = await inProcess(event, input(local), role);
      assert.ok('stdout' in answer, JSON.stringify(answer));
      assert.deepEqual([answer.exitCode, answer.stdout, answer.stderr], [expected.code, expected.stdout, expected.stderr]);
      assert.equal(answer.pid, process.pid);
      const [servedEvents, localEvents] = [served, local].map((f) => readEvents(stateDir(f)).events.map((e) => [e.type, e.role, e.tool, e.source]));
      assert.deepEqual(servedEvents, localEvents);
      assert.ok(servedEvents.length > 0, 'the call was recorded');
    });
  }

  it('a project role and a runtime switch are read per request', async () => {
    const folder = newWorkspace(env.root, { '.alfred/roles/no-terminal.toml': '[role]\nname = "no-terminal"\ninherits = "coder"\n[tools]\ndenied = ["run_in_terminal"]\n' });
    const call = request('PreToolUse', { cwd: folder, tool_name: 'run_in_terminal', tool_input: { command: 'ls' } }, folder);
    assert.deepEqual(await ask(server.socketPath, call), { stdout: '{}', stderr: '', exitCode: 0, pid: process.pid });
    await run(['role', 'no-terminal', '--workspace', folder]);
    const refused = await ask(server.socketPath, call);
    assert.ok('stdout' in refused);
    assert.match(refused.stdout, /"permissionDecision":"deny".*Alfred \(role no-terminal\)/);
  });

  it('role files and the settings edited between requests take effect at once (harnesses are kept only while unchanged)', async () => {
    const roleFile = '.alfred/roles/careful.toml';
    const folder = newWorkspace(env.root, { [roleFile]: '[role]\nname = "careful"\ninherits = "coder"\n' });
    const call = request('PreToolUse', { cwd: folder, tool_name: 'run_in_terminal', tool_input: { command: 'ls' } }, folder, { ALFRED_ROLE: 'careful' });
    const decision = async () => {
      const a = await ask(server.socketPath, call);
      assert.ok('stdout' in a, JSON.stringify(a));
      return a.stdout === '{}' ? 'allow' : /"deny".*Alfred \(role (\S+)\)/.exec(a.stdout)?.[1];
    };
    assert.equal(await decision(), 'allow');
    fs.writeFileSync(path.join(folder, roleFile), '[role]\nname = "careful"\ninherits = "coder"\n[tools]\ndenied = ["run_in_terminal"]\n');
    assert.equal(await decision(), 'careful');
    fs.rmSync(path.join(folder, roleFile));
    // The unknown role falls back to coder, as the command line does.
    assert.equal(await decision(), 'allow');
    const plain = request('PreToolUse', { cwd: folder, tool_name: 'run_in_terminal', tool_input: { command: 'ls' } }, folder);
    assert.equal((await ask(server.socketPath, plain) as { stdout?: string }).stdout, '{}');
    fs.mkdirSync(path.join(folder, '.vscode'));
    fs.writeFileSync(path.join(folder, '.vscode', 'settings.json'), '{ "alfred.role": "reviewer" }');
    assert.match((await ask(server.socketPath, plain) as { stdout?: string }).stdout ?? '', /Alfred \(role reviewer\)/);
  });

  it('malformed input: the command line\'s message and exit 1', async () => {
    const folder = newWorkspace(env.root);
    const answer = await ask(server.socketPath, { event: 'PreToolUse', stdin: '{"tool_name": ', processCwd: folder, env: {} });
    const expected = await run(['hook', 'PreToolUse', '--workspace', folder], '{"tool_name": ');
    assert.ok('stdout' in answer);
    assert.deepEqual([answer.exitCode, answer.stdout, answer.stderr], [1, '', expected.stderr]);
  });

  it('a bad request gets an error, never a hook answer', async () => {
    // A client of another version (3 forwarded no variable of the servers' keys, 4 named no build) is refused: it runs the hook itself.
    for (const v of [3, 6]) assert.match(String((await ask(server.socketPath, { v, event: 'PreToolUse', stdin: '{}', processCwd: env.root, env: {} }) as { error?: string }).error), new RegExp(`protocol version ${v}, expected 5`));
    assert.match(String((await ask(server.socketPath, { event: 'PreToolUse', stdin: '{}', processCwd: 'relative', env: {} }) as { error?: string }).error), /processCwd must be an absolute path/);
  });

  it(`20 concurrent shell calls against max_shell_invocations = 10: exactly 10 allowed`, async () => {
    const folder = newWorkspace(env.root, { '.alfred/roles/tight.toml': TIGHT });
    const call = request('PreToolUse', { cwd: folder, tool_name: 'run_in_terminal', tool_input: { command: 'ls' } }, folder, { ALFRED_ROLE: 'tight' });
    const answers = await Promise.all(Array.from({ length: 20 }, () => ask(server.socketPath, call)));
    const decisions = answers.map((a) => ('stdout' in a ? (a.stdout === '{}' || !a.stdout.includes('"deny"') ? 'allow' : 'deny') : `error ${a.error}`));
    assert.equal(decisions.filter((d) => d === 'allow').length, 10, decisions.join(', '));
    assert.equal(decisions.filter((d) => d === 'deny').length, 10);
    assert.equal(readLedger(stateDir(folder))!.usage.shell, 10);
    const calls = readEvents(stateDir(folder)).events.filter((e) => e.type === 'ToolCall');
    assert.equal(calls.length, 20);
    assert.equal(calls.filter((e) => e.decision === 'allow').length, 10);
  });
});

describe('the caller\'s environment', () => {
  it('ALFRED_ROLE and LEAN_CTX_ROLE come from the request, never from the server\'s own environment', async () => {
    const home = path.join(env.root, 'role-home');
    const server = await listening({ env: { ...process.env, ALFRED_HOME: home, ALFRED_ROLE: 'reviewer' } });
    try {
      const folder = newWorkspace(env.root);
      const shell = (roleEnv: HookRequest['env']) => ask(server.socketPath, request('PreToolUse', { cwd: folder, tool_name: 'run_in_terminal', tool_input: { command: 'ls' } }, folder, roleEnv));
      assert.deepEqual(await shell({}), { stdout: '{}', stderr: '', exitCode: 0, pid: process.pid });
      for (const roleEnv of [{ ALFRED_ROLE: 'reviewer' }, { LEAN_CTX_ROLE: 'reviewer' }]) {
        const refused = await shell(roleEnv);
        assert.ok('stdout' in refused);
        assert.match(refused.stdout, /Alfred \(role reviewer\): Role reviewer does not run shell commands/);
      }
      // The state is the server's alfred home: the one whose socket the caller found.
      const roles = readEvents(stateDir(folder, { ALFRED_HOME: home })).events.filter((e) => e.type === 'ToolCall').map((e) => e.role);
      assert.deepEqual(roles, ['coder', 'reviewer', 'reviewer']);
    } finally {
      await server.close();
    }
  });
});

describe('the caller\'s environment, whole', () => {
  // An agent in a terminal whose PATH puts a folder of the home first (a version manager's, a
  // virtualenv's), answered by a window whose own PATH does not have it: a program planted there
  // runs the next time the user types its name, so a command writing there is refused (here by
  // parsing: this file runs without the kernel sandbox), as the agent's own process refuses it.
  // Decided with the server's PATH, it was allowed.
  it('a served call decides with the caller\'s PATH and home, exactly as the command line in the caller\'s process', async () => {
    const tools = path.join(process.env.HOME!, '.tools', 'bin');
    const server = await listening({ env: { ...process.env, PATH: '/usr/bin:/bin' } });
    try {
      const folder = newWorkspace(env.root);
      const plant = { cwd: folder, tool_name: 'run_in_terminal', tool_input: { command: `cp /bin/true ${path.join(tools, 'git')}` } };
      const caller = `${tools}:/usr/bin:/bin`;
      const served = await ask(server.socketPath, { event: 'PreToolUse', stdin: JSON.stringify(plant), processCwd: folder, env: forwardedEnv({ ...process.env, PATH: caller }) });
      assert.ok('stdout' in served);
      assert.match(served.stdout, /"permissionDecision":"deny"/);
      assert.match(served.stdout, /\.tools\/bin\/git/);
      const saved = process.env.PATH;
      process.env.PATH = caller;
      try {
        assert.equal(served.stdout, (await inProcess('PreToolUse', plant)).stdout);
      } finally {
        process.env.PATH = saved;
      }
      // Without that folder on the caller's PATH, the same edit is no program of the user's: allowed.
      const elsewhere = await ask(server.socketPath, { event: 'PreToolUse', stdin: JSON.stringify(plant), processCwd: folder, env: forwardedEnv({ ...process.env, PATH: '/usr/bin:/bin' }) });
      assert.deepEqual(elsewhere, { stdout: '{}', stderr: '', exitCode: 0, pid: process.pid });
      // The home is the caller's too: the same folder under another HOME is not that home's.
      const other = path.join(env.root, 'other-home');
      fs.mkdirSync(other, { recursive: true });
      const otherHome = await ask(server.socketPath, { event: 'PreToolUse', stdin: JSON.stringify(plant), processCwd: folder, env: forwardedEnv({ ...process.env, HOME: other, PATH: caller }) });
      assert.ok('stdout' in otherHome);
      assert.doesNotMatch(otherHome.stdout, /"permissionDecision":"deny"/, 'not in the caller\'s home: not held as its PATH folder');
    } finally {
      await server.close();
    }
  });
});

describe('the socket', () => {
  it('is private: the folder 0700, the socket 0600', { skip: process.platform === 'win32' }, async () => {
    const server = await listening({ env: { ...process.env, ALFRED_HOME: path.join(env.root, 'mode-home') } });
    try {
      assert.equal(fs.statSync(path.dirname(server.socketPath)).mode & 0o777, 0o700);
      assert.equal(fs.statSync(server.socketPath).mode & 0o777, 0o600);
      assert.ok(fs.statSync(server.socketPath).isSocket());
      // And the port files of the launcher's fast path and of the sandbox, the same mode (nativeServer.test.ts).
      assert.deepEqual(fs.readdirSync(path.dirname(server.socketPath)).sort(), ['hook.sandboxed.tcp', 'hook.sock', 'hook.tcp']);
    } finally {
      await server.close();
    }
    assert.equal(fs.existsSync(server.socketPath), false, 'removed on close');
    assert.deepEqual(fs.readdirSync(path.dirname(server.socketPath)), [], 'the port files too');
  });

  it('a stale socket (its server killed) is taken over', { skip: process.platform === 'win32' }, async () => {
    const serverEnv = { ...process.env, ALFRED_HOME: path.join(env.root, 'stale-home') };
    const socketPath = defaultHookSocketPath(serverEnv);
    leaveStaleSocket(socketPath);
    const server = await listening({ env: serverEnv });
    try {
      const folder = newWorkspace(env.root);
      assert.deepEqual(await ask(socketPath, request('PreToolUse', { cwd: folder, tool_name: 'read_file' }, folder)), { stdout: '{}', stderr: '', exitCode: 0, pid: process.pid });
    } finally {
      await server.close();
    }
  });

  it('a live server is left alone; a server whose socket was removed knows it', async () => {
    const serverEnv = { ...process.env, ALFRED_HOME: path.join(env.root, 'busy-home') };
    const first = await listening({ env: serverEnv });
    try {
      const second = await startHookServer({ openHarness: open, env: serverEnv });
      assert.deepEqual(second, { kind: 'busy', socketPath: first.socketPath });
      assert.ok(first.ownsSocket());
      const folder = newWorkspace(env.root);
      assert.equal((await ask(first.socketPath, request('PreToolUse', { cwd: folder, tool_name: 'read_file' }, folder)) as { stdout?: string }).stdout, '{}');
      if (process.platform !== 'win32') {
        fs.rmSync(first.socketPath);
        assert.equal(first.ownsSocket(), false);
        const third = await listening({ env: serverEnv });
        await first.close();
        assert.ok(third.ownsSocket(), 'closing the orphan did not remove the new server\'s socket');
        await third.close();
      }
    } finally {
      await first.close();
    }
  });
});

describe('the launcher\'s client (dist/cli/alfred.cjs)', () => {
  before(() => {
    if (!fs.existsSync(CLI)) execFileSync(process.execPath, ['build.mjs'], { cwd: ROOT, stdio: 'ignore' });
  });
  const shellCall = (cwd: string) => ({ hook_event_name: 'PreToolUse', cwd, tool_name: 'run_in_terminal', tool_input: { command: 'ls' } });

  it('is answered by a running server, with the caller\'s ALFRED_ROLE', async () => {
    const server = await listening();
    try {
      const folder = newWorkspace(env.root);
      const r = await spawnCli('PreToolUse', shellCall(folder), folder, { ALFRED_ROLE: 'reviewer' });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, `alfred hook: answered by the hook server (pid ${process.pid})\n`);
      assert.match(r.stdout, /^\{"hookSpecificOutput":\{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Alfred \(role reviewer\): .*\}\}\n$/);
      assert.deepEqual(readEvents(stateDir(folder)).events.filter((e) => e.type === 'ToolCall').map((e) => [e.role, e.decision, e.source]), [['reviewer', 'deny', 'hook:PreToolUse']]);
      // ALFRED_HOOK_SERVER=off: the command line answers, the same.
      const off = await spawnCli('PreToolUse', shellCall(folder), folder, { ALFRED_ROLE: 'reviewer', ALFRED_HOOK_SERVER: 'off' });
      assert.deepEqual([off.code, off.stderr, off.stdout], [0, '', r.stdout]);
    } finally {
      await server.close();
    }
  });

  it('falls back to the command line without a server, on a stale socket and on a bad answer', { skip: process.platform === 'win32' }, async () => {
    const socketPath = defaultHookSocketPath();
    const check = async (why: RegExp) => {
      const folder = newWorkspace(env.root);
      const r = await spawnCli('PreToolUse', shellCall(folder), folder);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, why);
      assert.doesNotMatch(r.stderr, /answered by the hook server/);
      assert.equal(r.stdout, '{}\n');
      assert.equal(readLedger(stateDir(folder))!.usage.shell, 1, 'charged once, by the command line');
    };
    assert.equal(fs.existsSync(socketPath), false);
    await check(/no answer from the hook server \(ENOENT\); running in this process/);

    leaveStaleSocket(socketPath);
    await check(/no answer from the hook server \(ECONNREFUSED\); running in this process/);
    fs.rmSync(socketPath);

    const liar = net.createServer((s) => s.resume().end('not json\n'));
    await new Promise<void>((resolve) => liar.listen(socketPath, resolve));
    try {
      await check(/no answer from the hook server \(unreadable answer\); running in this process/);
    } finally {
      await new Promise((resolve) => liar.close(resolve));
    }
  });

  for (const [event, input] of [
    ['Stop', { hook_event_name: 'Stop', stop_hook_active: false }],
    ['agentStop', { stopReason: 'end_turn' }],
    ['AfterAgent', { hook_event_name: 'AfterAgent', prompt: 'p', prompt_response: 'done', stop_hook_active: false }],
  ] as const) {
    it(`${event} runs in the agent's own process (its checks need the agent's environment)`, async () => {
      const server = await listening();
      try {
        const folder = newWorkspace(env.root);
        const child = spawn(process.execPath, [CLI, 'hook', event], { cwd: folder, env: { ...process.env, ALFRED_HOOK_DEBUG: '1' } });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        child.stdin.end(JSON.stringify({ cwd: folder, ...input }));
        const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
        assert.equal(code, 0, stderr);
        assert.equal(stderr, '', 'not answered by the hook server');
      } finally {
        await server.close();
      }
    });
  }
});

describe('alfred serve', () => {
  it('answers hook calls until Ctrl-C, then removes its socket; a second one leaves the first alone', { skip: process.platform === 'win32' }, async () => {
    const serveEnv = { ...process.env, ALFRED_HOME: path.join(env.root, 'serve-home') };
    const serve = spawn(process.execPath, [CLI, 'serve'], { env: serveEnv });
    let out = '';
    serve.stdout.setEncoding('utf8');
    await new Promise<void>((resolve, reject) => {
      serve.stdout.on('data', (d: string) => { out += d; if (out.includes('\n')) resolve(); });
      serve.once('exit', (code) => reject(new Error(`alfred serve exited ${code}`)));
    });
    const socketPath = defaultHookSocketPath(serveEnv);
    const portFile = path.join(path.dirname(socketPath), 'hook.tcp');
    const port = fs.readFileSync(portFile, 'utf8').split(' ')[0];
    assert.equal(out, `alfred serve: answering hook calls on ${socketPath} and 127.0.0.1:${port} (pid ${serve.pid}). Ctrl-C stops.\n`);

    const second = spawnSync(process.execPath, [CLI, 'serve'], { env: serveEnv, encoding: 'utf8' });
    assert.equal(second.status, 1);
    assert.match(second.stderr, /another hook server is already answering on /);

    const folder = newWorkspace(env.root);
    const r = await spawnCli('PreToolUse', { cwd: folder, tool_name: 'read_file' }, folder, { ALFRED_HOME: serveEnv.ALFRED_HOME });
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, '{}\n', `alfred hook: answered by the hook server (pid ${serve.pid})\n`]);

    serve.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => serve.on('exit', resolve));
    assert.equal(code, 0);
    assert.match(out, /alfred serve: stopped\.\n$/);
    assert.equal(fs.existsSync(socketPath), false);
    assert.equal(fs.existsSync(portFile), false);
  });
});
