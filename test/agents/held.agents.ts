/**
 * What Alfred promises about a real client's session, checked on the real client (the corpus is in
 * corpus.agents.ts): every allowed command charged once, Claude Code's spend in `alfred usage` equal
 * to Claude Code's own account of it (requests, tokens, `total_cost_usd`) with nothing counted twice,
 * a resumed session adding exactly its own request, and every hook answer accepted without a warning.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { prepareClient, runClient } from '../support/agents/clients';
import { BUILT_CLI, type ClientId } from '../support/agents/hookFiles';
import { stopHookServers } from '../support/agents/hookServers';
import { startScriptedModel, type ScriptedCall } from '../support/scriptedModel/server';

const ROOT = path.resolve(__dirname, '../..');
const roots: string[] = [];

before(() => {
  if (!fs.existsSync(BUILT_CLI)) assert.equal(spawnSync(process.execPath, ['build.mjs'], { cwd: ROOT, stdio: 'inherit' }).status, 0, 'the build');
});
after(async () => {
  for (const r of roots) {
    await stopHookServers(path.join(r, 'home', '.alfred'));
    fs.rmSync(r, { recursive: true, force: true });
  }
});

function session(client: ClientId): { ws: string; home: string } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `alfred-held-${client}-`)));
  roots.push(root);
  const ws = path.join(root, 'ws');
  const home = path.join(root, 'home');
  fs.mkdirSync(ws);
  fs.mkdirSync(home);
  return { ws, home };
}

interface UsageTotals { calls: number; inputTokens: number; outputTokens: number; measuredUsd: number; toolCalls: number; refused: number; shellCalls: number }

/** `alfred usage --json`, as the user runs it in the workspace. */
function usage(ws: string, home: string): { total: UsageTotals; sessions: Array<UsageTotals & { session: string; source: string }> } {
  const r = spawnSync(process.execPath, [BUILT_CLI, 'usage', '--json'], { cwd: ws, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home } });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as ReturnType<typeof usage>;
}

const shellCall = (client: ClientId, command: string): ScriptedCall => ({
  claude: { name: 'Bash', args: { command, description: 'Run it' } },
  codex: { name: 'exec_command', args: { cmd: command } },
  'copilot-cli': { name: 'bash', args: { command, description: 'Run it' } },
  gemini: { name: 'run_shell_command', args: { command } },
}[client]);

for (const client of ['claude', 'codex', 'copilot-cli'] as const) {
  it(`${client}: three allowed commands are three shell charges, and each ran once`, async () => {
    const { ws, home } = session(client);
    const model = await startScriptedModel([1, 2, 3].map((n) => shellCall(client, `echo ${n} >> runs.txt`)));
    prepareClient(client, ws, home, model.url);
    const run = await runClient({ client, modelUrl: model.url, workspace: ws, home, role: 'coder' });
    await model.close();
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    assert.equal(fs.readFileSync(path.join(ws, 'runs.txt'), 'utf8'), '1\n2\n3\n');
    const { total } = usage(ws, home);
    assert.deepEqual([total.toolCalls, total.shellCalls, total.refused], [3, 3, 0]);
  });
}

for (const client of ['claude', 'codex'] as const) {
  it(`${client}: a workspace role's shell limit of one refuses the second command, which does not run, and says so to the model`, async () => {
    const { ws, home } = session(client);
    fs.mkdirSync(path.join(ws, '.alfred', 'roles'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.alfred', 'roles', 'onecall.toml'), '[role]\nname = "onecall"\ninherits = "coder"\n[limits]\nmax_shell_invocations = 1\n');
    const model = await startScriptedModel([shellCall(client, 'echo 1 >> runs.txt'), shellCall(client, 'echo 2 >> runs.txt')]);
    prepareClient(client, ws, home, model.url);
    const run = await runClient({ client, modelUrl: model.url, workspace: ws, home, role: 'onecall' });
    await model.close();
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    assert.equal(fs.readFileSync(path.join(ws, 'runs.txt'), 'utf8'), '1\n', 'only the first command ran');
    const second = model.toolResults().find((r) => r.callId.endsWith('call_2'));
    assert.match(second?.output ?? '', /Alfred \(role onecall\)/, 'the model was told why');
    const { total } = usage(ws, home);
    assert.deepEqual([total.shellCalls, total.refused], [1, 1]);
  });
}

describe('Claude Code: the spend Alfred reports is Claude Code\'s own', () => {
  const { ws, home } = { ws: '', home: '' };
  const state = { ws, home, sessionId: '', firstRequests: 0 };
  it('three requests: three model calls, the same tokens and the same cost as its total_cost_usd, nothing twice', async () => {
    Object.assign(state, session('claude'));
    const usageOf = { inputTokens: 1234, outputTokens: 56, cachedInputTokens: 1000 };
    const model = await startScriptedModel([shellCall('claude', 'true'), shellCall('claude', 'true')], { usage: usageOf });
    prepareClient('claude', state.ws, state.home, model.url);
    const run = await runClient({ client: 'claude', modelUrl: model.url, workspace: state.ws, home: state.home, role: 'coder' });
    await model.close();
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    const own = JSON.parse(run.stdout) as { total_cost_usd: number; session_id: string; usage: { input_tokens: number; output_tokens: number; cache_read_input_tokens: number } };
    state.sessionId = own.session_id;
    const main = model.requests.filter((r) => r.path.startsWith('/v1/messages?') || r.path === '/v1/messages');
    assert.equal(main.length, 3, 'the scripted model answered three requests');
    const { total, sessions } = usage(state.ws, state.home);
    assert.equal(total.calls, 3);
    assert.equal(total.inputTokens, 3 * usageOf.inputTokens);
    assert.equal(own.usage.input_tokens + own.usage.cache_read_input_tokens, 3 * usageOf.inputTokens, 'Claude Code counted the same');
    assert.equal(total.outputTokens, own.usage.output_tokens);
    assert.equal(total.measuredUsd.toFixed(10), own.total_cost_usd.toFixed(10));
    assert.deepEqual(sessions.map((s) => [s.session, s.source]), [[own.session_id, 'claude-transcript']]);
  });

  it('--resume adds exactly the one request it makes', async () => {
    assert.ok(state.sessionId, 'the first test ran');
    const model = await startScriptedModel([]);
    const run = await runClient({ client: 'claude', modelUrl: model.url, workspace: state.ws, home: state.home, role: 'coder', args: ['--resume', state.sessionId], prompt: 'And now?' });
    await model.close();
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    const own = JSON.parse(run.stdout) as { total_cost_usd: number };
    assert.equal(model.requests.filter((r) => r.path.startsWith('/v1/messages?') || r.path === '/v1/messages').length, 1);
    const { total } = usage(state.ws, state.home);
    assert.equal(total.calls, 4);
    assert.ok(own.total_cost_usd > 0);
  });

  it('every hook answer is accepted: no hook error or warning in its debug log', async () => {
    const { ws, home } = session('claude');
    const model = await startScriptedModel([shellCall('claude', 'true'), shellCall('claude', 'alfred role admin')]);
    prepareClient('claude', ws, home, model.url);
    const debugFile = path.join(home, 'debug.log');
    const run = await runClient({ client: 'claude', modelUrl: model.url, workspace: ws, home, role: 'coder', args: ['--debug-file', debugFile] });
    await model.close();
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    const log = fs.existsSync(debugFile) ? fs.readFileSync(debugFile, 'utf8') : run.stderr;
    assert.match(log, /PreToolUse/, 'the debug log covers the hooks');
    // Claude Code logs a hook output it rejects (a bad JSON shape, an unknown event) as an error or a warning.
    const problems = log.split('\n').filter((l) => /hook/i.test(l) && (/\[(ERROR|WARN)\]/.test(l) || /non-blocking error|validation (error|failed)|invalid hook|unknown hook/i.test(l)));
    assert.deepEqual(problems, []);
  });
});
