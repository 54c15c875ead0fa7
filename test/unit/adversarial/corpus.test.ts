/**
 * The adversarial corpus (test/fixtures/adversarial/corpus.json): what a governed agent with a shell
 * and edit tools tries in order to loosen its rules or write protected files, played through every
 * hook format (Copilot in VS Code, Claude Code, the Copilot CLI, Codex, Gemini CLI) with the input each
 * real client sends, and every path an agent's hook takes (`alfred hook` in process, the resident hook
 * server, and a real process for the deepest input).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readEvents } from '../../../src/core/base/events/read';
import { openWorkspaceHarness } from '../../../src/core/integrations/hooks/openWorkspace';
import { startHookServer, type HookServer } from '../../../src/core/integrations/hooks/server';
import { forwardedEnv, HOOK_PROTOCOL_VERSION, type HookRequest, type HookResponse } from '../../../src/core/integrations/hooks/serverProtocol';
import { stateDir } from '../../../src/core/base/state/paths';
import { isolateEnv, newWorkspace, run } from '../cli/helpers';
import { CORPUS, held, prepareCorpusHome, writeCorpusWorkspace, snapshot as snapshotIn, type CorpusCase } from './corpusHome';
import { runSandboxedAnswer, sandboxAvailable } from './sandboxed';

type Case = CorpusCase;

const ROOT = path.resolve(__dirname, '../../..');
const env = isolateEnv();
const CLAUDE_RECORDED = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/agents/claude-code-2.1.328/PreToolUse.Bash.json'), 'utf8')) as { input: Record<string, unknown> };

type Format = 'copilot' | 'claude' | 'copilot-cli' | 'codex' | 'gemini';
const FORMATS: readonly Format[] = ['copilot', 'claude', 'copilot-cli', 'codex', 'gemini'];

/** A stand-in for an input nested `depth` levels deep, written out by `serialize` (JSON.stringify of the real thing overflows). */
function nested(depth: number): unknown {
  return { __deep: depth };
}

function serialize(value: unknown): string {
  return JSON.stringify(value).replace(/\{"__deep":(\d+)\}/, (_m, n: string) => `${'['.repeat(Number(n))}"x"${']'.repeat(Number(n))}`);
}

/** The tool call an agent of `format` makes for the case, or undefined when it has no such tool. */
function toolCall(c: Case, format: Format, ws: string): { tool: string; input: Record<string, unknown> } | undefined {
  const shellTool = { copilot: 'run_in_terminal', claude: 'Bash', 'copilot-cli': 'bash', codex: 'exec_command', gemini: 'run_shell_command' }[format];
  if (c.shell !== undefined) {
    return { tool: shellTool, input: format === 'copilot' ? { command: c.shell, explanation: 'x', goal: 'x', mode: 'sync', isBackground: false } : { command: c.shell } };
  }
  if (c.task !== undefined || c.taskObject !== undefined) {
    const task = { label: 'build', type: 'shell', command: c.task ?? c.taskObject, ...(c.taskArgs ? { args: c.taskArgs } : {}), isBackground: false };
    return format === 'copilot' ? { tool: 'create_and_run_task', input: { workspaceFolder: ws, task } } : undefined;
  }
  if (c.patch !== undefined) {
    // Codex 0.169 sends the patch text under `command`; Copilot's tools under `input`.
    if (format === 'codex') return { tool: 'apply_patch', input: { command: c.patch } };
    if (format === 'copilot') return { tool: 'apply_patch', input: { input: c.patch, explanation: 'x' } };
    return format === 'copilot-cli' ? { tool: 'apply_patch', input: { input: c.patch } } : undefined;
  }
  if (c.edit !== undefined) {
    // `~/…`: a file in the user's home (VS Code's user settings, Alfred's own folder).
    const abs = c.edit.startsWith('~/') ? path.join(process.env.HOME!, c.edit.slice(2)) : path.join(ws, c.edit);
    // Codex writes files only through apply_patch.
    if (format === 'codex') return { tool: 'apply_patch', input: { command: `*** Begin Patch\n*** Add File: ${abs}\n${(c.content ?? '').split('\n').map((l) => `+${l}`).join('\n')}\n*** End Patch\n` } };
    if (format === 'copilot') return { tool: 'create_file', input: { filePath: abs, content: c.content } };
    if (format === 'claude') return { tool: 'Write', input: { file_path: abs, content: c.content } };
    if (format === 'gemini') return { tool: 'write_file', input: { file_path: abs, content: c.content } };
    return { tool: 'create', input: { path: abs, file_text: c.content } };
  }
  if (c.vscodeCommand !== undefined) return format === 'copilot' ? { tool: 'run_vscode_command', input: { commandId: c.vscodeCommand, args: c.args ?? [] } } : undefined;
  if (c.deep !== undefined) return { tool: shellTool, input: { command: 'ls', x: nested(c.deep) } };
  return undefined;
}

/** The hook's event name and stdin as the agent sends them. */
function hookInput(format: Format, ws: string, call: { tool: string; input: Record<string, unknown> }): { event: string; stdin: string } {
  if (format === 'copilot-cli') {
    return { event: 'preToolUse', stdin: JSON.stringify({ sessionId: 's1', timestamp: Date.now(), cwd: ws, toolName: call.tool, toolArgs: serialize(call.input) }) };
  }
  // Claude Code's input as the real client sends it (recorded from it: its permission mode, transcript, ids).
  const claude = format === 'claude' ? CLAUDE_RECORDED.input : {};
  // Codex 0.169's carries a permission mode too, its turn and model; VS Code's none of them.
  const codex = format === 'codex' ? { turn_id: 't1', model: 'gpt-5.1-codex', permission_mode: 'default', transcript_path: null, tool_use_id: 'call_1' } : {};
  if (format === 'gemini') {
    return { event: 'BeforeTool', stdin: serialize({ session_id: 's1', transcript_path: '', cwd: ws, hook_event_name: 'BeforeTool', timestamp: new Date().toISOString(), tool_name: call.tool, tool_input: call.input }) };
  }
  return { event: 'PreToolUse', stdin: serialize({ ...claude, hook_event_name: 'PreToolUse', session_id: 's1', cwd: ws, tool_name: call.tool, tool_input: call.input, ...codex }) };
}

/**
 * `decision`: `pass` is no decision at all (the agent's own confirmation still runs), otherwise as answered.
 * `rewritten`: the input the agent runs instead, from the field it applies (the Copilot CLI's `modifiedArgs`, the others' `updatedInput`).
 */
interface Decision { decision: string; reason?: string; rewritten?: Record<string, unknown> }

function decisionOf(stdout: string): Decision {
  const out = JSON.parse(stdout || '{}') as Record<string, unknown> & { hookSpecificOutput?: Record<string, unknown> };
  const specific = out.hookSpecificOutput ?? {};
  // Gemini CLI reads a top-level decision and its reason, and a rewrite as hookSpecificOutput.tool_input.
  const decision = specific.permissionDecision ?? out.permissionDecision ?? out.decision;
  return {
    decision: decision === undefined ? 'pass' : String(decision),
    reason: String(specific.permissionDecisionReason ?? out.permissionDecisionReason ?? out.reason ?? ''),
    rewritten: (specific.updatedInput ?? specific.tool_input ?? out.modifiedArgs ?? undefined) as Record<string, unknown> | undefined,
  };
}

function workspace(): string {
  const ws = newWorkspace(env.root);
  writeCorpusWorkspace(ws);
  return ws;
}

function lastDecisionCode(ws: string): unknown {
  const decisions = readEvents(stateDir(ws), { types: ['ToolCall'] }).events.filter((e) => e.phase === 'decision');
  return decisions.at(-1)?.code;
}

type Ask = (event: string, stdin: string, ws: string, role: string) => Promise<string>;

const inProcess: Ask = async (event, stdin, _ws, role) => {
  process.env.ALFRED_ROLE = role;
  try {
    const r = await run(['hook', event], stdin);
    assert.equal(r.code, 0, `alfred hook exited ${r.code}: ${r.stderr}`);
    return r.stdout;
  } finally {
    delete process.env.ALFRED_ROLE;
  }
};

let server: HookServer | undefined;
let savedPath: string | undefined;
const throughServer: Ask = (event, stdin, ws, role) => new Promise((resolve, reject) => {
  // As the launcher's client sends it: the caller's forwarded variables, its role among them.
  const request: HookRequest = { v: HOOK_PROTOCOL_VERSION, event, stdin, processCwd: ws, env: forwardedEnv({ ...process.env, ALFRED_ROLE: role }) };
  const socket = net.connect(server!.socketPath, () => socket.write(`${JSON.stringify(request)}\n`));
  let text = '';
  socket.setEncoding('utf8').on('data', (d: string) => (text += d));
  socket.on('end', () => {
    const response = JSON.parse(text) as HookResponse;
    if ('error' in response) reject(new Error(response.error));
    else resolve(response.stdout);
  });
  socket.on('error', reject);
});

before(async () => {
  // Alfred's own folder where a user has it, in the home: the cases aim at ~/.alfred (its state, its run files).
  process.env.ALFRED_HOME = path.join(process.env.HOME!, '.alfred');
  // The launcher every hook runs, for the case that tries to replace it.
  fs.mkdirSync(path.join(process.env.HOME!, '.alfred', 'bin'), { recursive: true });
  fs.writeFileSync(path.join(process.env.HOME!, '.alfred', 'bin', 'alfred'), '#!/bin/sh\nexec alfred "$@"\n', { mode: 0o755 });
  savedPath = process.env.PATH;
  process.env.PATH = prepareCorpusHome(process.env.HOME!, process.env.PATH ?? '');
  const started = await startHookServer({
    openHarness: (folder, harnessEnv, cwd) => openWorkspaceHarness(folder, { builtinRolesDir: path.join(ROOT, 'roles'), version: 'test', env: harnessEnv, cwd }),
  });
  assert.equal(started.kind, 'listening');
  server = (started as { server: HookServer }).server;
});
after(async () => {
  await server?.close();
  if (savedPath !== undefined) process.env.PATH = savedPath;
});

for (const [pathName, ask] of [['alfred hook', inProcess], ['the hook server', throughServer]] as const) {
  describe(`adversarial corpus through ${pathName}`, () => {
    for (const c of CORPUS.cases) {
      for (const format of FORMATS) {
        it(`${c.name} (${format})`, async () => {
          const ws = workspace();
          const call = toolCall(c, format, ws);
          if (!call) return; // this agent has no such tool
          const { event, stdin } = hookInput(format, ws, call);
          const protectedBefore = c.protects ? snapshot(ws, c.protects) : undefined;
          const answer = decisionOf(await ask(event, stdin, ws, c.role ?? 'coder'));
          if (c.expect === 'deny') {
            assert.equal(answer.decision, 'deny', `refused: ${JSON.stringify(answer)}`);
            assert.match(answer.reason ?? '', /^Alfred \(role \w+\): /);
            assert.equal(lastDecisionCode(ws), c.code);
            return;
          }
          // sandboxed: the call may only run inside the kernel sandbox, where it fails.
          if (!sandboxAvailable()) {
            // No sandbox here: guarded by parsing only (auto), nothing rewritten.
            assert.equal(answer.decision, 'pass', JSON.stringify(answer));
            assert.equal(answer.rewritten, undefined);
            return;
          }
          // Every agent here is rewritten; none is allowed outright but Codex, which applies a rewrite only with `allow`.
          assert.equal(answer.decision, format === 'codex' ? 'allow' : 'pass');
          assert.ok(answer.rewritten, `the command is rewritten to run in the sandbox: ${JSON.stringify(answer)}`);
          runSandboxedAnswer(answer.rewritten, ws, env.root);
          const protectedAfter = snapshot(ws, c.protects!);
          assert.ok(held(c.protects!, protectedBefore, protectedAfter), `${c.protects} held: ${protectedBefore} before, ${protectedAfter} after`);
        });
      }
    }
  });
}

describe('the deepest input through a real `alfred hook` process', () => {
  it('a 100,000-level input is refused with a reason, exit 0, and nothing is charged', () => {
    const cli = path.join(ROOT, 'dist', 'cli', 'alfred.cjs');
    if (!fs.existsSync(cli)) spawnSync(process.execPath, ['build.mjs'], { cwd: ROOT, stdio: 'ignore' });
    const ws = workspace();
    const stdin = serialize({ hook_event_name: 'PreToolUse', cwd: ws, tool_name: 'run_in_terminal', tool_input: { command: 'ls', x: nested(100_000) } });
    const r = spawnSync(process.execPath, [cli, 'hook', 'PreToolUse'], { input: stdin, encoding: 'utf8', env: { ...process.env, ALFRED_HOOK_SERVER: 'off' } });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(decisionOf(r.stdout).decision, 'deny');
    assert.match(decisionOf(r.stdout).reason ?? '', /nested more than 64 levels deep/);
    assert.equal(lastDecisionCode(ws), 'invalid-input');
  });
});

/** The content (or listing) of a protected path, to compare before and after. */
function snapshot(ws: string, rel: string): string {
  return snapshotIn(ws, process.env.HOME!, rel);
}
