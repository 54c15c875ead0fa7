/**
 * The launcher's fast path: the real bash launcher (launcherScripts with bash) against a real hook
 * server in this process, on a temporary ALFRED_HOME. Its answers are byte for byte those of the
 * command line; a request without the token, or with a smuggled line, runs nothing; a stale or
 * squatted port, ALFRED_HOOK_SERVER=off and Stop go to the command line; concurrent calls charge
 * exactly.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readEvents } from '../../../../src/core/base/events/read';
import { launcherScripts, launcherTarget } from '../../../../src/core/integrations/hooks/install';
import { NativeHookListener } from '../../../../src/core/integrations/hooks/nativeListener';
import { NATIVE_MAGIC, PORT_FILE, SANDBOXED_PORT_FILE } from '../../../../src/core/integrations/hooks/nativeProtocol';
import { openWorkspaceHarness } from '../../../../src/core/integrations/hooks/openWorkspace';
import { startHookServer, type HookServer, type HookServerOptions } from '../../../../src/core/integrations/hooks/server';
import { readLedger } from '../../../../src/core/ledger/ledgerFormat';
import { alfredHome, stateDir } from '../../../../src/core/base/state/paths';
import { isolateEnv, newWorkspace } from '../../cli/helpers';

const env = isolateEnv();
// Each answer is compared with the command line's in another workspace: the sandbox's rewrite would name it.
before(() => { process.env.ALFRED_SANDBOX = 'off'; });
after(() => { delete process.env.ALFRED_SANDBOX; });
const ROOT = path.resolve(__dirname, '../../../..');
const CLI = path.join(ROOT, 'dist', 'cli', 'alfred.cjs');
const FAST = /^alfred hook: answered by the hook server \(pid \d+\) on the launcher's fast path\n/;
const skip = process.platform === 'win32' || !fs.existsSync('/bin/bash');

const open: HookServerOptions['openHarness'] = (folder, harnessEnv, cwd) =>
  openWorkspaceHarness(folder, { builtinRolesDir: path.join(ROOT, 'roles'), version: 'test', env: harnessEnv, cwd });

let launcher = '';
before(() => {
  if (!fs.existsSync(CLI)) execFileSync(process.execPath, ['build.mjs'], { cwd: ROOT, stdio: 'ignore' });
  launcher = path.join(env.root, 'bin', 'alfred');
  fs.mkdirSync(path.dirname(launcher), { recursive: true });
  fs.writeFileSync(launcher, launcherScripts(process.execPath, CLI, { bash: true }).posix, { mode: 0o755 });
});

/** The launcher as written where /proc is not (macOS): it sends its variables as header lines. */
function withoutProc(): string {
  const file = path.join(env.root, 'bin', 'alfred-without-proc');
  const text = launcherScripts(process.execPath, CLI, { bash: true }).posix;
  assert.ok(text.includes('[[ -r /proc/$$/environ ]]'));
  if (!fs.existsSync(file)) fs.writeFileSync(file, text.replace('[[ -r /proc/$$/environ ]]', '[[ -r /no-proc/$$/environ ]]'), { mode: 0o755 });
  return file;
}

interface Ran { code: number | null; stdout: string; stderr: string }

/** The launcher as an agent runs it; stdin a socket (as Node gives it), a pipe from sh, or a file. */
function launch(args: string[], input: string, cwd: string, extraEnv: Record<string, string | undefined> = {}, stdin: 'socket' | 'pipe' | 'file' = 'socket', file = launcher): Promise<Ran> {
  const childEnv = { ...process.env, ...extraEnv };
  let child;
  if (stdin === 'socket') child = spawn(file, args, { cwd, env: childEnv });
  else if (stdin === 'pipe') child = spawn('/bin/sh', ['-c', 'printf %s "$IN" | "$0" "$@"', file, ...args], { cwd, env: { ...childEnv, IN: input } });
  else {
    const inputFile = path.join(env.root, `input-${process.hrtime.bigint()}.json`);
    fs.writeFileSync(inputFile, input);
    child = spawn(file, args, { cwd, env: childEnv, stdio: [fs.openSync(inputFile, 'r'), 'pipe', 'pipe'] });
  }
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  if (stdin === 'socket') child.stdin!.end(input);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** The command line itself (the launcher with the server off), in a workspace of its own. */
const commandLine = (args: string[], input: string, cwd: string, extraEnv: Record<string, string> = {}) =>
  launch(args, input, cwd, { ...extraEnv, ALFRED_HOOK_SERVER: 'off' });

/** One raw request to the server's port, as anything on this machine could send it. */
function raw(port: number, bytes: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(bytes));
    let text = '';
    socket.setEncoding('utf8').on('data', (d: string) => (text += d));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

/** The head of an answer of this process's server: `<code> <pid> <proof> ` (zero-padded), its length to follow. */
const answerHead = (code: number, proof: string) => `${String(code).padStart(3, '0')} ${String(process.pid).padStart(10, '0')} ${proof} `;
/** A whole answer of this process's server. */
const answerOf = (code: number, proof: string, body: string) => `${answerHead(code, proof)}${String(Buffer.byteLength(body)).padStart(10, '0')}\n${body}`;

const portFile = () => path.join(alfredHome(), 'run', PORT_FILE);
const readPortFile = () => fs.readFileSync(portFile(), 'utf8').trim().split(' ');
const toolCalls = (folder: string) => readEvents(stateDir(folder)).events.filter((e) => e.type === 'ToolCall');
const shellCall = (cwd: string) => JSON.stringify({ hook_event_name: 'PreToolUse', cwd, tool_name: 'run_in_terminal', tool_input: { command: 'ls' } });

describe('the launcher\'s fast path', { skip }, () => {
  let server: HookServer;
  before(async () => {
    const started = await startHookServer({ openHarness: open });
    assert.equal(started.kind, 'listening');
    server = (started as { server: HookServer }).server;
  });
  after(() => server.close());

  const cases: [string, string, (cwd: string) => string, Record<string, string>, number][] = [
    ['an allowed shell call', 'PreToolUse', shellCall, {}, 0],
    ['a refused shell call (Claude Code\'s format)', 'PreToolUse', shellCall, { ALFRED_ROLE: 'reviewer' }, 0],
    ['a refused call in the Copilot CLI\'s format', 'preToolUse', (cwd) => JSON.stringify({ sessionId: 's', cwd, toolName: 'bash', toolArgs: '{"command":"ls"}' }), { LEAN_CTX_ROLE: 'reviewer' }, 0],
    ['malformed input: exit 1 and the message on stderr', 'PreToolUse', () => '{"tool_name": ', {}, 1],
    ['a PostToolUse with a 1 MB tool response', 'PostToolUse', (cwd) => JSON.stringify({ hook_event_name: 'PostToolUse', cwd, tool_name: 'read_file', tool_input: { filePath: 'a.ts' }, tool_response: `line é ${'x'.repeat(80)}\n`.repeat(12_000) }), {}, 0],
  ];
  for (const [name, event, input, roleEnv, exitCode] of cases) {
    it(`${name}: byte for byte the command line's answer`, async () => {
      const [fast, local] = [newWorkspace(env.root), newWorkspace(env.root)];
      const served = await launch(['hook', event], input(fast), fast, { ...roleEnv, ALFRED_HOOK_DEBUG: '1' });
      const expected = await commandLine(['hook', event], input(local), local, roleEnv);
      assert.equal(expected.code, exitCode, expected.stderr);
      assert.match(served.stderr, FAST);
      assert.deepEqual([served.code, served.stdout, served.stderr.replace(FAST, '')], [expected.code, expected.stdout, expected.stderr]);
      const decisions = (f: string) => toolCalls(f).map((e) => [e.role, e.decision, e.source, e.charge]);
      assert.deepEqual(decisions(fast), decisions(local));
      if (exitCode === 0) assert.ok(decisions(fast).length > 0, 'the call was recorded');
    });
  }

  it('reads its input from a pipe and from a file as from a socket', async () => {
    for (const stdin of ['pipe', 'file'] as const) {
      const folder = newWorkspace(env.root);
      const r = await launch(['hook', 'PreToolUse'], shellCall(folder), folder, { ALFRED_ROLE: 'reviewer', ALFRED_HOOK_DEBUG: '1' }, stdin);
      assert.match(r.stderr, FAST, stdin);
      assert.match(r.stdout, /^\{"hookSpecificOutput":\{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Alfred \(role reviewer\): /);
      assert.deepEqual(toolCalls(folder).map((e) => [e.role, e.decision]), [['reviewer', 'deny']]);
    }
  });

  it('a symlinked cwd and a relative ALFRED_WORKSPACE resolve as the command line resolves them', async () => {
    const folder = newWorkspace(env.root, { '.alfred/roles/no-terminal.toml': '[role]\nname = "no-terminal"\ninherits = "coder"\n[tools]\ndenied = ["run_in_terminal"]\n' });
    const link = path.join(env.root, `link-${path.basename(folder)}`);
    fs.symlinkSync(folder, link);
    // No cwd in the input: the process's folder (or the workspace given) decides.
    const input = JSON.stringify({ tool_name: 'run_in_terminal', tool_input: { command: 'ls' } });
    const roleEnv = { ALFRED_ROLE: 'no-terminal', ALFRED_HOOK_DEBUG: '1' };
    for (const r of [
      await launch(['hook', 'PreToolUse'], input, link, { ...roleEnv, PWD: link }),
      await launch(['hook', 'PreToolUse'], input, env.root, { ...roleEnv, PWD: env.root, ALFRED_WORKSPACE: path.basename(link) }),
    ]) {
      assert.match(r.stderr, FAST);
      assert.match(r.stdout, /"permissionDecision":"deny".*Alfred \(role no-terminal\)/);
    }
    assert.deepEqual(toolCalls(folder).map((e) => e.role), ['no-terminal', 'no-terminal']);
  });

  it('the caller\'s PATH decides, not the server\'s: a command planting a program in a home folder first on it is refused, as by the command line', async () => {
    const tools = path.join(process.env.HOME!, '.tools', 'bin');
    const input = (cwd: string) => JSON.stringify({ hook_event_name: 'PreToolUse', cwd, tool_name: 'run_in_terminal', tool_input: { command: `cp /bin/true ${path.join(tools, 'git')}` } });
    const callerEnv = { PATH: `${tools}:${process.env.PATH}` };
    const [fast, local] = [newWorkspace(env.root), newWorkspace(env.root)];
    const served = await launch(['hook', 'PreToolUse'], input(fast), fast, { ...callerEnv, ALFRED_HOOK_DEBUG: '1' });
    assert.match(served.stderr, FAST);
    assert.match(served.stdout, /"permissionDecision":"deny".*\.tools\/bin\/git/);
    const expected = await commandLine(['hook', 'PreToolUse'], input(local), local, callerEnv);
    assert.equal(served.stdout, expected.stdout);
    // The server's own PATH does not hold that folder: the same command from a caller without it goes ahead.
    const plain = await launch(['hook', 'PreToolUse'], input(fast), fast, { ALFRED_HOOK_DEBUG: '1' });
    assert.deepEqual([plain.stdout, FAST.test(plain.stderr)], ['{}\n', true]);
  });

  it('a newline in a variable is read whole from /proc: the answer is the command line\'s', { skip: !fs.existsSync('/proc/self/environ') }, async () => {
    const smuggling = { ALFRED_ROLE: 'reviewer\nevent Stop', XDG_CONFIG_HOME: `${env.root}/a\nb` };
    const [fast, local] = [newWorkspace(env.root), newWorkspace(env.root)];
    const served = await launch(['hook', 'PreToolUse'], shellCall(fast), fast, { ...smuggling, ALFRED_HOOK_DEBUG: '1' });
    const expected = await commandLine(['hook', 'PreToolUse'], shellCall(local), local, smuggling);
    assert.match(served.stderr, FAST);
    assert.deepEqual([served.code, served.stdout, served.stderr.replace(FAST, '')], [expected.code, expected.stdout, expected.stderr]);
    assert.deepEqual(toolCalls(fast).map((e) => [e.role, e.decision]), toolCalls(local).map((e) => [e.role, e.decision]));
  });

  it('twelve concurrent calls charge exactly twelve shell calls', async () => {
    const folder = newWorkspace(env.root);
    const runs = await Promise.all(Array.from({ length: 12 }, () => launch(['hook', 'PreToolUse'], shellCall(folder), folder, { ALFRED_HOOK_DEBUG: '1' })));
    for (const r of runs) assert.deepEqual([r.code, r.stdout, FAST.test(r.stderr)], [0, '{}\n', true], r.stderr);
    assert.equal(readLedger(stateDir(folder))!.usage.shell, 12);
    assert.equal(toolCalls(folder).length, 12);
  });

  it('the port file: private, `<port> <token> <proof>`, and the port is the server\'s', () => {
    assert.equal(fs.statSync(portFile()).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.dirname(portFile())).mode & 0o777, 0o700);
    const [port, token, proof] = readPortFile();
    assert.equal(Number(port), server.nativePort);
    assert.match(token!, /^[0-9a-f]{64}$/);
    assert.match(proof!, /^[0-9a-f]{64}$/);
    assert.notEqual(token, proof);
  });

  it('the sandbox\'s port file: the same port, a token and a proof of its own; a call with that token is decided with the server\'s environment, not the one it sends', async () => {
    const sandboxed = path.join(path.dirname(portFile()), SANDBOXED_PORT_FILE);
    assert.equal(fs.statSync(sandboxed).mode & 0o777, 0o600);
    const [port, token, proof] = fs.readFileSync(sandboxed, 'utf8').trim().split(' ');
    const [ownPort, ownToken, ownProof] = readPortFile();
    assert.equal(port, ownPort);
    assert.match(token!, /^[0-9a-f]{64}$/);
    assert.match(proof!, /^[0-9a-f]{64}$/);
    assert.equal(new Set([token, proof, ownToken, ownProof]).size, 4);
    // A nested agent's hook asks as reviewer: answered as the server's own role (coder here), with the sandbox's proof.
    const folder = newWorkspace(env.root);
    const input = shellCall(folder);
    const ask = (t: string) => raw(Number(port), `${NATIVE_MAGIC}${t}\nevent PreToolUse\ncwd ${folder}\nenv ALFRED_ROLE=reviewer\nenv ALFRED_SANDBOX=off\nlength ${Buffer.byteLength(input)}\n\n${input}`);
    const fromInside = await ask(token!);
    assert.ok(fromInside.startsWith(answerHead(0, proof!)), fromInside);
    assert.doesNotMatch(fromInside, /permissionDecision/);
    assert.deepEqual(toolCalls(folder).map((e) => [e.role, e.decision]), [['coder', 'allow']]);
    assert.deepEqual(readEvents(stateDir(folder)).events.filter((e) => e.type === 'RoleChanged'), [], 'no session of another role');
    // The launcher's own token: its role counts (the control).
    const fromOutside = await ask(ownToken!);
    assert.ok(fromOutside.startsWith(answerHead(0, ownProof!)), fromOutside);
    assert.match(fromOutside, /Alfred \(role reviewer\)/);
  });

  describe('requests that run nothing', () => {
    const refusedRaw = async (folder: string, bytes: string | Buffer) => {
      const answer = await raw(server.nativePort!, bytes);
      assert.equal(toolCalls(folder).length, 0, 'nothing recorded');
      assert.equal(readLedger(stateDir(folder))?.usage.shell ?? 0, 0, 'nothing charged');
      return answer;
    };
    const request = (token: string, folder: string, lines: string[] = [], input = shellCall(folder)) =>
      `${NATIVE_MAGIC}${token}\nevent PreToolUse\ncwd ${folder}\n${lines.map((l) => `${l}\n`).join('')}length ${Buffer.byteLength(input)}\n\n${input}`;

    it('a well-formed request is answered (the control for the ones below)', async () => {
      const folder = newWorkspace(env.root);
      const [, token, proof] = readPortFile();
      // As the launcher sends it here: ALFRED_SANDBOX=off is this file's (a request without it has none).
      assert.equal(await raw(server.nativePort!, request(token!, folder, ['env ALFRED_SANDBOX=off'])), answerOf(0, proof!, '{}\n\x1e'));
      assert.equal(readLedger(stateDir(folder))!.usage.shell, 1);
    });

    it('without the token, with a wrong one, or as a web page\'s request', async () => {
      const folder = newWorkspace(env.root);
      const [, token] = readPortFile();
      const wrong = token!.replace(/^./, (c) => (c === '0' ? '1' : '0'));
      assert.equal(await refusedRaw(folder, request('', folder)), 'fallback not a request from the launcher\n');
      assert.equal(await refusedRaw(folder, request(wrong, folder)), 'fallback not a request from the launcher\n');
      assert.equal(await refusedRaw(folder, request(`${token}0`, folder)), 'fallback not a request from the launcher\n');
      // A launcher of another version (4 forwarded no variable of the servers' keys) runs the command line;
      // with the token it is another build's launcher (a server started on demand then gives way).
      assert.equal(await refusedRaw(folder, request(token!, folder).replace(NATIVE_MAGIC, 'alfred-hook 4 ')), 'fallback another version of the launcher\n');
      assert.equal(await refusedRaw(folder, request(wrong, folder).replace(NATIVE_MAGIC, 'alfred-hook 4 ')), 'fallback not a request from the launcher\n');
      assert.equal(await refusedRaw(folder, `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n\r\n${request(token!, folder)}`), 'fallback not a request from the launcher\n');
    });

    it('a newline or a NUL smuggled in a value, an unknown or repeated line, Stop, a wrong length', async () => {
      const folder = newWorkspace(env.root);
      const [, token] = readPortFile();
      const t = token!;
      assert.equal(await refusedRaw(folder, request(t, `${folder}\nevent Stop`)), 'fallback event given twice\n');
      assert.equal(await refusedRaw(folder, request(t, folder, ['env ALFRED_ROLE=admin\nenv ALFRED_ROLE=coder'])), 'fallback env ALFRED_ROLE given twice\n');
      assert.equal(await refusedRaw(folder, request(t, folder, ['env ALFRED_ROLE=ad\0min'])), 'fallback a NUL in the header\n');
      assert.equal(await refusedRaw(folder, request(t, `${folder}\0/x`)), 'fallback a NUL in the header\n');
      assert.equal(await refusedRaw(folder, request(t, folder, ['env ALFRED_HOME=/tmp/elsewhere'])), 'fallback env ALFRED_HOME is not forwarded\n');
      assert.equal(await refusedRaw(folder, request(t, folder, ['stdin-pid 1'])), 'fallback unknown header line "stdin-pid"\n');
      assert.equal(await refusedRaw(folder, request(t, 'relative/dir')), 'fallback cwd must be an absolute path\n');
      assert.equal(await refusedRaw(folder, request(t, folder).replace('event PreToolUse', 'event agentStop')), 'fallback Stop runs in the agent\'s process\n');
      assert.equal(await refusedRaw(folder, `${request(t, folder)}extra`), 'fallback more input than its length\n');
      assert.equal(await refusedRaw(folder, Buffer.concat([Buffer.from(`${NATIVE_MAGIC}${t}\nevent PreToolUse\ncwd /tmp/\xff`, 'latin1'), Buffer.from(`\nlength 0\n\n`)])), 'fallback the header is not UTF-8\n');
    });

    it('the launcher sends no value with a newline: the command line answers such a call', async () => {
      const folder = newWorkspace(env.root);
      const r = await launch(['hook', 'PreToolUse'], shellCall(folder), folder, { ALFRED_ROLE: 'reviewer\nevent Stop', ALFRED_HOOK_DEBUG: '1' }, 'socket', withoutProc());
      assert.match(r.stderr, /^alfred hook: no answer on the launcher's fast path \(a newline in ALFRED_ROLE\); running the command line\n/);
      assert.doesNotMatch(r.stderr, FAST);
    });
  });

  describe('the caller\'s pid in place of its variables', { skip: !fs.existsSync('/proc/self/environ') }, () => {
    /** A process whose arguments end as a launcher's (`hook PreToolUse`), in `cwd`, with `extraEnv`. */
    const lookalike = (cwd: string, extraEnv: Record<string, string> = {}) =>
      spawn('/bin/bash', ['-c', 'sleep 60 & wait', 'hook', 'PreToolUse'], { cwd, env: { ...process.env, ...extraEnv }, stdio: 'ignore' });
    const request = (token: string, folder: string, lines: string[]) => {
      const input = shellCall(folder);
      return `${NATIVE_MAGIC}${token}\nevent PreToolUse\ncwd ${folder}\n${lines.map((l) => `${l}\n`).join('')}length ${Buffer.byteLength(input)}\n\n${input}`;
    };
    const children: ReturnType<typeof spawn>[] = [];
    after(() => children.forEach((c) => c.kill()));

    it('the variables of the process named decide: its role, not the server\'s', async () => {
      const folder = newWorkspace(env.root);
      const [, token, proof] = readPortFile();
      const caller = lookalike(folder, { ALFRED_ROLE: 'reviewer' });
      children.push(caller);
      await new Promise((resolve) => caller.once('spawn', resolve));
      const answer = await raw(server.nativePort!, request(token!, folder, [`pid ${caller.pid}`]));
      assert.ok(answer.startsWith(answerHead(0, proof!)), answer);
      assert.match(answer, /"permissionDecision":"deny".*Alfred \(role reviewer\)/);
      assert.deepEqual(toolCalls(folder).map((e) => [e.role, e.decision]), [['reviewer', 'deny']]);
    });

    it('a pid that is not this call\'s launcher, or none here, runs nothing', async () => {
      const folder = newWorkspace(env.root);
      const elsewhere = newWorkspace(env.root);
      const [, token] = readPortFile();
      const ask = async (lines: string[]) => {
        const answer = await raw(server.nativePort!, request(token!, folder, lines));
        assert.equal(toolCalls(folder).length, 0, 'nothing recorded');
        return answer;
      };
      const other = lookalike(elsewhere, { ALFRED_ROLE: 'admin' });
      children.push(other);
      await new Promise((resolve) => other.once('spawn', resolve));
      // The test's own process (not running `hook PreToolUse`), a lookalike in another folder, a pid no process has.
      assert.equal(await ask([`pid ${process.pid}`]), `fallback process ${process.pid} is not a launcher asking for PreToolUse\n`);
      assert.equal(await ask([`pid ${other.pid}`]), `fallback process ${other.pid} runs in another folder\n`);
      assert.equal(await ask(['pid 4294967295']), 'fallback process 4294967295 could not be read (ENOENT)\n');
      assert.equal(await ask(['pid 0']), 'fallback pid must be a process id\n');
      assert.equal(await ask([`pid ${process.pid}`, 'env ALFRED_ROLE=admin']), 'fallback both pid and env lines\n');
    });

    it('from inside the sandbox a pid is not followed: the server\'s own variables decide', async () => {
      const folder = newWorkspace(env.root);
      const [, token, proof] = fs.readFileSync(path.join(path.dirname(portFile()), SANDBOXED_PORT_FILE), 'utf8').trim().split(' ');
      const caller = lookalike(folder, { ALFRED_ROLE: 'reviewer' });
      children.push(caller);
      await new Promise((resolve) => caller.once('spawn', resolve));
      const answer = await raw(server.nativePort!, request(token!, folder, [`pid ${caller.pid}`]));
      assert.ok(answer.startsWith(answerHead(0, proof!)), answer);
      assert.doesNotMatch(answer, /permissionDecision/);
      assert.deepEqual(toolCalls(folder).map((e) => [e.role, e.decision]), [['coder', 'allow']]);
    });
  });

  describe('where /proc is not, the launcher sends its variables', () => {
    it('a refused call: byte for byte the command line\'s answer', async () => {
      const [fast, local] = [newWorkspace(env.root), newWorkspace(env.root)];
      const served = await launch(['hook', 'PreToolUse'], shellCall(fast), fast, { ALFRED_ROLE: 'reviewer', ALFRED_HOOK_DEBUG: '1' }, 'socket', withoutProc());
      const expected = await commandLine(['hook', 'PreToolUse'], shellCall(local), local, { ALFRED_ROLE: 'reviewer' });
      assert.match(served.stderr, FAST);
      assert.deepEqual([served.code, served.stdout, served.stderr.replace(FAST, '')], [expected.code, expected.stdout, expected.stderr]);
      assert.match(served.stdout, /Alfred \(role reviewer\)/);
    });

    it('a newline in a forwarded variable: the command line answers, with that value', async () => {
      const folder = newWorkspace(env.root);
      const r = await launch(['hook', 'PreToolUse'], shellCall(folder), folder, { XDG_CONFIG_HOME: `${env.root}/a\nb`, ALFRED_HOOK_DEBUG: '1' }, 'socket', withoutProc());
      assert.match(r.stderr, /no answer on the launcher's fast path \(a newline in XDG_CONFIG_HOME\)/);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(toolCalls(folder).length, 1);
    });
  });
});

describe('the launcher without a fast-path answer runs the command line', { skip }, () => {
  /** A TCP listener that counts its connections and answers each with `answer`. */
  async function listener(answer: string): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
    let count = 0;
    const s = net.createServer((socket) => {
      count++;
      socket.on('error', () => undefined);
      socket.once('data', () => socket.end(answer));
    });
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    return { port: (s.address() as net.AddressInfo).port, connections: () => count, close: () => new Promise((resolve) => s.close(() => resolve())) };
  }
  const writePortFile = (port: number, proof = 'b'.repeat(64)) => {
    fs.mkdirSync(path.dirname(portFile()), { recursive: true, mode: 0o700 });
    fs.writeFileSync(portFile(), `${port} ${'a'.repeat(64)} ${proof}\n`, { mode: 0o600 });
  };
  after(() => fs.rmSync(portFile(), { force: true }));

  /** The call answered by the command line in this process (no server socket either), charged once. */
  async function answeredByCommandLine(extraEnv: Record<string, string>, why: RegExp | undefined) {
    const folder = newWorkspace(env.root);
    const r = await launch(['hook', 'PreToolUse'], shellCall(folder), folder, { ...extraEnv, ALFRED_HOOK_DEBUG: '1' });
    const nodeClient = 'alfred hook: no answer from the hook server (ENOENT); running in this process\n';
    assert.deepEqual([r.code, r.stdout], [0, '{}\n'], r.stderr);
    if (why) {
      assert.match(r.stderr, why);
      assert.ok(r.stderr.endsWith(nodeClient), r.stderr);
    } else {
      assert.equal(r.stderr, '', 'the server is skipped, silently');
    }
    assert.equal(readLedger(stateDir(folder))!.usage.shell, 1, 'charged once');
  }

  it('a stale hook.tcp (its server gone)', async () => {
    const gone = await listener('');
    await gone.close();
    writePortFile(gone.port);
    await answeredByCommandLine({}, new RegExp(`^alfred hook: no answer on the launcher's fast path \\(nothing listens on port ${gone.port}\\); running the command line\\n`));
  });

  it('a port taken over by another process: an answer without the proof is no answer', async () => {
    const squatter = await listener(`0 1 ${'c'.repeat(64)}\n{"hookSpecificOutput":{"permissionDecision":"allow"}}\n\x1e`);
    try {
      writePortFile(squatter.port);
      await answeredByCommandLine({}, /^alfred hook: no answer on the launcher's fast path \(no complete answer\); running the command line\n/);
      assert.equal(squatter.connections(), 1);
    } finally {
      await squatter.close();
    }
  });

  it('an answer with the proof but cut short of its length, or longer than it says, is no answer', async () => {
    const proof = 'b'.repeat(64);
    const body = '{"hookSpecificOutput":{"permissionDecision":"allow"}}\n\x1e';
    const head = (length: number) => `000 0000000001 ${proof} ${String(length).padStart(10, '0')}\n`;
    for (const answer of [`${head(body.length + 40)}${body}`, `${head(body.length - 10)}${body}`]) {
      const server = await listener(answer);
      try {
        writePortFile(server.port, proof);
        await answeredByCommandLine({}, /^alfred hook: no answer on the launcher's fast path \(no complete answer\); running the command line\n/);
        assert.equal(server.connections(), 1);
      } finally {
        await server.close();
      }
    }
  });

  it('a `fallback` whose reason is longer than an answer\'s first line is read whole', async () => {
    const reason = `process 4242 could not be read (${'x'.repeat(150)})`;
    const refusing = await listener(`fallback ${reason}\n`);
    try {
      writePortFile(refusing.port);
      await answeredByCommandLine({}, new RegExp(`^alfred hook: no answer on the launcher's fast path \\(the server did not run it: ${reason.replace(/[()]/g, '\\$&')}\\); running the command line\\n`));
    } finally {
      await refusing.close();
    }
  });

  it('`fallback` from the server: the command line gets the input untouched', async () => {
    const refusing = await listener('fallback the hook server could not answer (test)\n');
    try {
      writePortFile(refusing.port);
      await answeredByCommandLine({}, /^alfred hook: no answer on the launcher's fast path \(the server did not run it: the hook server could not answer \(test\)\); running the command line\n/);
    } finally {
      await refusing.close();
    }
  });

  it('ALFRED_HOOK_SERVER=off, Stop and a command line with more arguments never connect', async () => {
    const spy = await listener('fallback spy\n');
    try {
      writePortFile(spy.port);
      await answeredByCommandLine({ ALFRED_HOOK_SERVER: 'off' }, undefined);
      const folder = newWorkspace(env.root);
      const stop = await launch(['hook', 'Stop'], JSON.stringify({ cwd: folder, hook_event_name: 'Stop', stop_hook_active: false }), folder, { ALFRED_HOOK_DEBUG: '1' });
      assert.deepEqual([stop.code, stop.stderr], [0, '']);
      const workspace = await launch(['hook', 'PreToolUse', '--workspace', folder], shellCall(folder), folder, { ALFRED_HOOK_DEBUG: '1' });
      assert.deepEqual([workspace.code, workspace.stdout], [0, '{}\n']);
      assert.doesNotMatch(workspace.stderr, /fast path/);
      assert.equal(spy.connections(), 0);
    } finally {
      await spy.close();
    }
  });
});

describe('the port file\'s owner', { skip }, () => {
  it('a second server leaves a live one\'s port file alone; a closing server removes only its own', async () => {
    const serverEnv = { ...process.env, ALFRED_HOME: path.join(env.root, 'owner-home') };
    const file = path.join(serverEnv.ALFRED_HOME, 'run', PORT_FILE);
    const first = (await startHookServer({ openHarness: open, env: serverEnv })) as { kind: 'listening'; server: HookServer };
    assert.equal(first.kind, 'listening');
    const text = fs.readFileSync(file, 'utf8');
    assert.equal((await startHookServer({ openHarness: open, env: serverEnv })).kind, 'busy');
    assert.equal(fs.readFileSync(file, 'utf8'), text);
    // The first server's socket removed: a new server takes over, and the orphan's close leaves its file.
    fs.rmSync(first.server.socketPath);
    const second = (await startHookServer({ openHarness: open, env: serverEnv })) as { kind: 'listening'; server: HookServer };
    const secondText = fs.readFileSync(file, 'utf8');
    assert.notEqual(secondText, text);
    await first.server.close();
    assert.equal(fs.readFileSync(file, 'utf8'), secondText);
    await second.server.close();
    assert.equal(fs.existsSync(file), false);
  });
});

it('launcherTarget reads the bash launcher back', () => {
  const bash = launcherScripts('/opt/code/code', '/ext/dist/cli/alfred.cjs', { bash: true }).posix;
  assert.match(bash, /^#!\/bin\/bash -p\n/);
  assert.deepEqual(launcherTarget(bash), { runtime: '/opt/code/code', cli: '/ext/dist/cli/alfred.cjs' });
});

describe('a connection that stalls', { skip }, () => {
  it('is dropped once its request is late, whether it sent nothing or half a header; a whole one is answered', async () => {
    const home = path.join(env.root, 'stall-home');
    let served = 0;
    const listener = new NativeHookListener(home, async () => {
      served++;
      return { stdout: '', stderr: '', exitCode: 0, pid: process.pid };
    }, 200);
    await listener.listen();
    try {
      const [port, token, proof] = fs.readFileSync(listener.portFile, 'utf8').trim().split(' ');
      /** Opens a connection, sends `bytes`, and resolves with what came back and how long the server kept it open. */
      const stall = (bytes: string) => new Promise<{ text: string; ms: number }>((resolve, reject) => {
        const started = Date.now();
        const socket = net.connect(Number(port), '127.0.0.1', () => { if (bytes) socket.write(bytes); });
        let text = '';
        socket.setEncoding('utf8').on('data', (d: string) => (text += d));
        socket.on('close', () => resolve({ text, ms: Date.now() - started }));
        socket.on('error', reject);
      });
      for (const bytes of ['', `${NATIVE_MAGIC}${token}\nevent PreToolUse\n`]) {
        const { text, ms } = await stall(bytes);
        assert.equal(text, '', 'nothing answered');
        assert.ok(ms >= 150 && ms < 5_000, `dropped after ${ms} ms`);
      }
      assert.equal(served, 0);
      const answer = await raw(Number(port), `${NATIVE_MAGIC}${token}\nevent PreToolUse\ncwd ${env.root}\nlength 2\n\n{}`);
      assert.ok(answer.startsWith(answerHead(0, proof!)), answer);
      assert.equal(served, 1);
    } finally {
      await listener.close();
    }
  });
});
