/**
 * The adversarial corpus (test/fixtures/adversarial/corpus.json): what a governed agent with a shell
 * and edit tools tries in order to loosen its rules or write protected files, played through every
 * hook format (Copilot in VS Code, Claude Code, the Copilot CLI) and every path an agent's hook takes
 * (`alfred hook` in process, the resident hook server, and a real process for the deepest input).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readEvents } from '../../../src/core/events/read';
import { openWorkspaceHarness } from '../../../src/core/hooks/openWorkspace';
import { startHookServer, type HookServer } from '../../../src/core/hooks/server';
import { forwardedEnv, HOOK_PROTOCOL_VERSION, type HookRequest, type HookResponse } from '../../../src/core/hooks/serverProtocol';
import { stateDir } from '../../../src/core/state/paths';
import { isolateEnv, newWorkspace, run } from '../cli/helpers';
import { runSandboxedAnswer, sandboxAvailable } from './sandboxed';

interface Case {
  name: string;
  shell?: string;
  /** A task's command (and `taskArgs`): VS Code's create_and_run_task writes it into tasks.json and runs it in a terminal of its own. */
  task?: string;
  /** A task's command given as an object (VS Code's quoted string) instead. */
  taskObject?: unknown;
  taskArgs?: unknown[];
  edit?: string;
  content?: string;
  vscodeCommand?: string;
  args?: unknown[];
  deep?: number;
  role?: string;
  expect: 'deny' | 'sandboxed';
  code?: string;
  protects?: string;
}

const ROOT = path.resolve(__dirname, '../../..');
const CORPUS = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/adversarial/corpus.json'), 'utf8')) as {
  /** homeFiles: files in the home no list of Alfred's names, home-relative. */
  setup: { files: Record<string, string>; hardLinks: Record<string, string>; homeFiles: Record<string, string> };
  cases: Case[];
};
const env = isolateEnv();

type Format = 'copilot' | 'claude' | 'copilot-cli';
const FORMATS: readonly Format[] = ['copilot', 'claude', 'copilot-cli'];

/** A stand-in for an input nested `depth` levels deep, written out by `serialize` (JSON.stringify of the real thing overflows). */
function nested(depth: number): unknown {
  return { __deep: depth };
}

function serialize(value: unknown): string {
  return JSON.stringify(value).replace(/\{"__deep":(\d+)\}/, (_m, n: string) => `${'['.repeat(Number(n))}"x"${']'.repeat(Number(n))}`);
}

/** The tool call an agent of `format` makes for the case, or undefined when it has no such tool. */
function toolCall(c: Case, format: Format, ws: string): { tool: string; input: Record<string, unknown> } | undefined {
  const shellTool = { copilot: 'run_in_terminal', claude: 'Bash', 'copilot-cli': 'bash' }[format];
  if (c.shell !== undefined) {
    return { tool: shellTool, input: format === 'copilot' ? { command: c.shell, explanation: 'x', goal: 'x', mode: 'sync', isBackground: false } : { command: c.shell } };
  }
  if (c.task !== undefined || c.taskObject !== undefined) {
    const task = { label: 'build', type: 'shell', command: c.task ?? c.taskObject, ...(c.taskArgs ? { args: c.taskArgs } : {}), isBackground: false };
    return format === 'copilot' ? { tool: 'create_and_run_task', input: { workspaceFolder: ws, task } } : undefined;
  }
  if (c.edit !== undefined) {
    // `~/…`: a file in the user's home (VS Code's user settings, Alfred's own folder).
    const abs = c.edit.startsWith('~/') ? path.join(process.env.HOME!, c.edit.slice(2)) : path.join(ws, c.edit);
    if (format === 'copilot') return { tool: 'create_file', input: { filePath: abs, content: c.content } };
    if (format === 'claude') return { tool: 'Write', input: { file_path: abs, content: c.content } };
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
  // Claude Code's input carries its permission mode; VS Code's does not.
  const claude = format === 'claude' ? { permission_mode: 'default' } : {};
  return { event: 'PreToolUse', stdin: serialize({ hook_event_name: 'PreToolUse', session_id: 's1', cwd: ws, tool_name: call.tool, tool_input: call.input, ...claude }) };
}

interface Decision { decision: 'deny' | 'pass'; reason?: string; updatedInput?: Record<string, unknown> }

function decisionOf(stdout: string): Decision {
  const out = JSON.parse(stdout || '{}') as Record<string, unknown> & { hookSpecificOutput?: Record<string, unknown> };
  const specific = out.hookSpecificOutput ?? {};
  const decision = specific.permissionDecision ?? out.permissionDecision;
  return {
    decision: decision === 'deny' ? 'deny' : 'pass',
    reason: String(specific.permissionDecisionReason ?? out.permissionDecisionReason ?? ''),
    updatedInput: (specific.updatedInput ?? undefined) as Record<string, unknown> | undefined,
  };
}

function workspace(): string {
  const ws = newWorkspace(env.root, CORPUS.setup.files);
  for (const [link, target] of Object.entries(CORPUS.setup.hardLinks)) fs.linkSync(path.join(ws, target), path.join(ws, link));
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
  // The launcher every hook runs, for the case that tries to replace it.
  fs.mkdirSync(path.join(process.env.HOME!, '.alfred', 'bin'), { recursive: true });
  fs.writeFileSync(path.join(process.env.HOME!, '.alfred', 'bin', 'alfred'), '#!/bin/sh\nexec alfred "$@"\n', { mode: 0o755 });
  // The start-up files the cases that target them expect a user to have.
  // Fedora's, which sources every file in ~/.bashrc.d, and lines an installer or the user added.
  fs.writeFileSync(path.join(process.env.HOME!, '.bashrc'), 'alias ll="ls -l"\nif [ -d ~/.bashrc.d ]; then for rc in ~/.bashrc.d/*; do . "$rc"; done; fi\n'
    + 'export NVM_DIR="$HOME/.nvm"\n[ -s "$NVM_DIR/nvm.sh" ] && \\. "$NVM_DIR/nvm.sh"\n. "$HOME/.config/shell/env.sh"\n');
  fs.mkdirSync(path.join(process.env.HOME!, '.config', 'shell'), { recursive: true });
  fs.writeFileSync(path.join(process.env.HOME!, '.config', 'shell', 'env.sh'), 'export EDITOR=vi\n');
  // Python's user site and cargo's configuration, whose content the checks' python3 and cargo run.
  fs.mkdirSync(path.join(process.env.HOME!, '.local', 'lib', 'python3.11', 'site-packages'), { recursive: true });
  fs.mkdirSync(path.join(process.env.HOME!, '.cargo'));
  fs.writeFileSync(path.join(process.env.HOME!, '.cargo', 'config.toml'), '[net]\nretry = 2\n');
  fs.mkdirSync(path.join(process.env.HOME!, '.bashrc.d'));
  for (const [rel, text] of Object.entries(CORPUS.setup.homeFiles)) {
    fs.mkdirSync(path.dirname(path.join(process.env.HOME!, rel)), { recursive: true });
    fs.writeFileSync(path.join(process.env.HOME!, rel), text);
  }
  // A global hooks folder and a local include, as many set up: neither exists yet.
  fs.writeFileSync(path.join(process.env.HOME!, '.gitconfig'), '[user]\n\tname = Ana\n[include]\n\tpath = ~/.gitconfig.local\n[core]\n\thooksPath = ~/.githooks\n');
  fs.writeFileSync(path.join(process.env.HOME!, '.npmrc'), 'fund=false\n');
  fs.writeFileSync(path.join(process.env.HOME!, '.vimrc'), 'set number\n');
  fs.mkdirSync(path.join(process.env.HOME!, '.local', 'share', 'direnv', 'allow'), { recursive: true });
  fs.mkdirSync(path.join(process.env.HOME!, '.ssh'), { mode: 0o700 });
  fs.mkdirSync(path.join(process.env.HOME!, '.gradle', 'caches'), { recursive: true }); // Gradle used, no init.d yet
  fs.mkdirSync(path.join(process.env.HOME!, '.gnupg'), { mode: 0o700 });
  fs.writeFileSync(path.join(process.env.HOME!, '.gnupg', 'gpg-agent.conf'), 'default-cache-ttl 600\n');
  fs.mkdirSync(path.join(process.env.HOME!, '.config', 'environment.d'), { recursive: true });
  // A folder of the command search path in the home, where the cases that plant a program expect one.
  const localBin = path.join(process.env.HOME!, '.local', 'bin');
  fs.mkdirSync(localBin, { recursive: true });
  // And nvm's Node, whose npm the checks run: its code and its global npmrc.
  const nvm = path.join(process.env.HOME!, '.nvm', 'versions', 'node', 'v22.11.0');
  for (const dir of ['bin', 'lib/node_modules/npm/bin', 'etc']) fs.mkdirSync(path.join(nvm, dir), { recursive: true });
  fs.writeFileSync(path.join(nvm, 'bin', 'node'), '#!/bin/sh\n', { mode: 0o755 });
  fs.writeFileSync(path.join(nvm, 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'), 'require("../lib/cli.js")(process)\n');
  fs.writeFileSync(path.join(nvm, 'etc', 'npmrc'), 'fund=false\n');
  fs.writeFileSync(path.join(process.env.HOME!, '.nvm', 'nvm.sh'), 'nvm() { :; }\n');
  savedPath = process.env.PATH;
  // npm's own recipe for global installs without root: a prefix in the home, on PATH before any install made it.
  const npmGlobal = path.join(process.env.HOME!, '.npm-global', 'bin');
  // After the system's folders: the cases' `node -e` must find the real Node first.
  process.env.PATH = `${npmGlobal}${path.delimiter}${localBin}${path.delimiter}${process.env.PATH ?? ''}${path.delimiter}${path.join(nvm, 'bin')}`;
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
          if (!sandboxAvailable() || format !== 'copilot') {
            // Only VS Code's agent applies a rewritten input without `allow`: the others fall back to parsing (auto).
            assert.equal(answer.decision, 'pass', JSON.stringify(answer));
            assert.equal(answer.updatedInput, undefined);
            return;
          }
          assert.equal(answer.decision, 'pass');
          assert.ok(answer.updatedInput, `the command is rewritten to run in the sandbox: ${JSON.stringify(answer)}`);
          runSandboxedAnswer(answer.updatedInput, ws, env.root);
          assert.deepEqual(snapshot(ws, c.protects!), protectedBefore, `${c.protects} is unchanged`);
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
  const abs = rel.startsWith('~/') ? path.join(process.env.HOME!, rel.slice(2)) : path.join(ws, rel);
  if (!fs.existsSync(abs)) return '(missing)';
  const st = fs.statSync(abs);
  if (st.isDirectory()) return fs.readdirSync(abs, { recursive: true }).map(String).sort().map((f) => `${f}:${fs.statSync(path.join(abs, f)).isFile() ? fs.readFileSync(path.join(abs, f), 'utf8') : ''}`).join('\n');
  return fs.readFileSync(abs, 'utf8');
}
