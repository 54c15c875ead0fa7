/** `alfred hook <Event>`: in-process through main(), and once through the built bundle as agents run it. */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import { stateDir } from '../../../src/core/base/state/paths';
import { isolateEnv, newWorkspace, run } from './helpers';

const env = isolateEnv();
const ROOT = path.resolve(__dirname, '../../..');
const BUNDLE = path.join(ROOT, 'dist', 'cli', 'alfred.mjs');
const ROLE_TIGHT_CLOSED = '[role]\nname = "closed"\nfail_closed = true\n[limits]\nmax_context_tokens = 1000\nmax_shell_invocations = 5\nmax_cost_usd = 1.0\n';

const hook = (event: string, input: unknown, args: string[] = []) =>
  run(['hook', event, ...args], typeof input === 'string' ? input : JSON.stringify(input));

describe('alfred hook: answers', () => {
  it('a refusal is JSON on stdout and exit 0, with nothing on stderr', async () => {
    const folder = newWorkspace(env.root);
    await run(['role', 'reviewer', '--workspace', folder]);
    const r = await hook('PreToolUse', { hook_event_name: 'PreToolUse', cwd: folder, tool_name: 'run_in_terminal', tool_input: { command: 'ls' } });
    assert.deepEqual([r.code, r.err], [0, []]);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: Record<string, unknown> };
    assert.equal(out.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(String(out.hookSpecificOutput.permissionDecisionReason), /^Alfred \(role reviewer\): /);
  });

  it('takes the workspace from the input\'s cwd unless --workspace is given', async () => {
    const a = newWorkspace(env.root);
    const b = newWorkspace(env.root);
    await run(['role', 'reviewer', '--workspace', a]);
    const input = { cwd: a, tool_name: 'Bash', tool_input: { command: 'ls' } };
    assert.match((await hook('PreToolUse', input)).stdout, /"deny"/);
    assert.doesNotMatch((await hook('PreToolUse', input, ['--workspace', b])).stdout, /"deny"/);
  });

  it('PostToolUse charges the response and answers {}', async () => {
    const folder = newWorkspace(env.root);
    const r = await hook('PostToolUse', { cwd: folder, tool_name: 'read_file', tool_response: 'some file text' });
    assert.deepEqual([r.code, r.stdout], [0, '{}']);
    assert.match((await run(['budget', '--workspace', folder])).stdout, /tokens [1-9]\d*\/200000/);
  });
});

describe('alfred hook: errors never block (exit 1, never 2)', () => {
  const bad: [string, string][] = [['malformed JSON', '{"tool_name": '], ['empty stdin', ''], ['an array', '[1,2]']];
  for (const [name, stdin] of bad) {
    it(`${name}: a one-line message on stderr, nothing on stdout, exit 1`, async () => {
      const r = await run(['hook', 'PreToolUse', '--workspace', newWorkspace(env.root)], stdin);
      assert.equal(r.code, 1);
      assert.deepEqual(r.out, []);
      assert.equal(r.err.length, 1);
      assert.match(r.err[0]!, /^alfred hook PreToolUse: /);
      assert.equal(r.err[0]!.trim().includes('\n'), false);
    });
  }

  it('an unknown event exits 1 with the supported events and the usage', async () => {
    const r = await hook('TeammateIdle', { tool_name: 'x' });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /unsupported event "TeammateIdle"\. Supported: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop, PermissionRequest, SubagentStart, SubagentStop, PreCompact, sessionStart, userPromptSubmitted, preToolUse, postToolUse, agentStop, permissionRequest, subagentStart, subagentStop, preCompact, BeforeAgent, BeforeTool, AfterTool, AfterAgent\./);
    assert.match(r.stderr, /Usage: alfred hook </);
  });

  it('a missing event exits 1 with the usage', async () => {
    const r = await run(['hook']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^Usage: alfred hook </);
  });

  it('a failure inside Alfred lets the call through (exit 1, message on stderr)', async () => {
    const folder = newWorkspace(env.root);
    fs.mkdirSync(path.join(stateDir(folder), 'events.jsonl')); // appending to the log now fails
    const r = await hook('PreToolUse', { cwd: folder, tool_name: 'read_file', tool_input: {} });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^Alfred failed while handling PreToolUse: .*\(the call goes ahead: Alfred fails open\)\.$/);
  });

  it('…unless the role is fail_closed: then it is refused (exit 0, deny)', async () => {
    const folder = newWorkspace(env.root, { '.alfred/roles/closed.toml': ROLE_TIGHT_CLOSED });
    await run(['role', 'closed', '--workspace', folder]);
    fs.rmSync(path.join(stateDir(folder), 'events.jsonl'), { force: true });
    fs.mkdirSync(path.join(stateDir(folder), 'events.jsonl'));
    const r = await hook('preToolUse', { cwd: folder, toolName: 'view', toolArgs: '{}' });
    assert.equal(r.code, 0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    assert.equal(out.permissionDecision, 'deny');
    assert.match(String(out.permissionDecisionReason), /Role closed is fail_closed, so the call is refused\./);
  });
});

describe('the built bundle, as an agent runs it', () => {
  before(() => {
    if (!fs.existsSync(BUNDLE)) execFileSync(process.execPath, ['build.mjs'], { cwd: ROOT, stdio: 'ignore' });
  });

  const spawnHook = (event: string, input: unknown, extraEnv: Record<string, string>, cwd: string) =>
    spawnSync(process.execPath, [BUNDLE, 'hook', event], {
      cwd, input: typeof input === 'string' ? input : JSON.stringify(input), encoding: 'utf8',
      env: { ...process.env, ...extraEnv },
    });

  it('refuses a shell call under reviewer with the VS Code answer', () => {
    const folder = newWorkspace(env.root);
    const r = spawnHook('PreToolUse', { hook_event_name: 'PreToolUse', session_id: 's', cwd: folder, tool_name: 'run_in_terminal', tool_input: { command: 'rm -rf build' } }, { ALFRED_ROLE: 'reviewer' }, folder);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: Record<string, unknown> };
    assert.deepEqual(Object.keys(out.hookSpecificOutput), ['hookEventName', 'permissionDecision', 'permissionDecisionReason']);
    assert.equal(out.hookSpecificOutput.hookEventName, 'PreToolUse');
    assert.equal(out.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(String(out.hookSpecificOutput.permissionDecisionReason), /^Alfred \(role reviewer\): Role reviewer does not run shell commands/);
  });

  it('answers the Copilot CLI format, and lets a read through with {}', () => {
    const folder = newWorkspace(env.root);
    const deny = spawnHook('preToolUse', { sessionId: 's', cwd: folder, toolName: 'bash', toolArgs: '{"command":"ls"}' }, { ALFRED_ROLE: 'reviewer' }, folder);
    assert.equal(JSON.parse(deny.stdout).permissionDecision, 'deny');
    const pass = spawnHook('PreToolUse', { cwd: folder, tool_name: 'read_file', tool_input: { filePath: 'a.ts' } }, { ALFRED_ROLE: 'reviewer' }, folder);
    assert.deepEqual([pass.status, pass.stdout.trim()], [0, '{}']);
  });

  it('keeps a V8 code cache in ALFRED_HOME/cache; a corrupt one is rewritten, other bundles\' old ones are dropped', () => {
    const folder = newWorkspace(env.root);
    const home = path.join(env.root, 'cache-home');
    const budget = () => spawnSync(process.execPath, [BUNDLE, 'budget', '--workspace', folder], { encoding: 'utf8', env: { ...process.env, ALFRED_HOME: home } });
    const LINE = 'Budget[coder]: tokens 0/200000 (0%) | shell 0/100 (0%) | cost $0.00/$5.00 (0%) → OK\n';
    assert.equal(budget().stdout, LINE);
    const cacheDir = path.join(home, 'cache');
    const [file] = fs.readdirSync(cacheDir);
    assert.match(file ?? '', new RegExp(`^cli-${process.version.replace(/\./g, '\\.')}-v8_.+-${process.arch}-\\d+-\\d+-other\\.bin$`));
    fs.writeFileSync(path.join(cacheDir, file!), 'not a code cache');
    const old = path.join(cacheDir, 'cli-v1.0.0-x64-1-1-other.bin');
    const recent = path.join(cacheDir, 'cli-v1.0.0-x64-2-2-other.bin');
    fs.writeFileSync(old, 'an old bundle\'s cache');
    fs.writeFileSync(recent, 'another bundle\'s cache, in use');
    fs.utimesSync(old, new Date('2020-01-01'), new Date('2020-01-01'));
    assert.equal(budget().stdout, LINE);
    assert.deepEqual(fs.readdirSync(cacheDir).sort(), [file!, path.basename(recent)].sort());
    assert.ok(fs.statSync(path.join(cacheDir, file!)).size > 1000, 'rewritten');
    assert.equal(budget().stdout, LINE);
  });

  it('malformed stdin: exit 1, one line on stderr, nothing on stdout', () => {
    const folder = newWorkspace(env.root);
    const r = spawnHook('PreToolUse', 'garbage', {}, folder);
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^alfred hook PreToolUse: stdin is not JSON \(.*\)\.\n$/);
  });
});
