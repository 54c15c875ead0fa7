/**
 * A served hook call answers with the caller's FORWARDED_ENV in place of the server's own: that is
 * exactly the caller's own process only if a decision reads no other variable. Every variable the
 * harness reads while it opens and decides (every event, a role under `sandbox = "strict"` too) is
 * recorded through its environment; any outside the list would let a window's own value stand in
 * for its caller's.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { openWorkspaceHarness } from '../../../../src/core/integrations/hooks/openWorkspace';
import { runHook } from '../../../../src/core/integrations/hooks/run';
import { detectSandbox } from '../../../../src/core/sandbox/detect';
import { FORWARDED_ENV } from '../../../../src/core/integrations/hooks/serverProtocol';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-forwarded-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

// Without a kernel sandbox no decision plans one, and what planning reads (TMPDIR among it) goes untested.
const sandbox = detectSandbox(process.env);
const noSandbox = sandbox.kind === 'none' && `no kernel sandbox here (${sandbox.why}): shell calls plan none`;

test('a decision reads from its environment only FORWARDED_ENV and ALFRED_HOME', { skip: noSandbox }, async () => {
  const ws = path.join(root, 'ws');
  fs.mkdirSync(path.join(ws, '.alfred', 'roles'), { recursive: true });
  fs.writeFileSync(path.join(ws, '.alfred', 'roles', 'jailed.toml'),
    '[role]\nname = "jailed"\nsandbox = "strict"\n[limits]\nmax_context_tokens = 100000\nmax_shell_invocations = 10\nmax_cost_usd = 1.0\n');
  const values: NodeJS.ProcessEnv = { ALFRED_HOME: path.join(root, 'alfred'), HOME: path.join(root, 'home'), PATH: process.env.PATH };
  const read = new Set<string>();
  // Listing the variables (a key made of them all) reads none of them for a decision; a lookup does.
  const env = new Proxy(values, {
    get: (target, name) => (typeof name === 'string' && read.add(name), Reflect.get(target, name)),
    has: (target, name) => (typeof name === 'string' && read.add(name), Reflect.has(target, name)),
  });
  const open = (folder: string) => openWorkspaceHarness(folder, { builtinRolesDir: path.resolve(__dirname, '../../../../roles'), version: 'test', env });
  const inputs: Array<[string, object]> = [
    ['SessionStart', {}],
    ['UserPromptSubmit', { prompt: 'hello' }],
    ['PreToolUse', { tool_name: 'run_in_terminal', tool_input: { command: 'ls ~/.config' } }],
    ['PreToolUse', { tool_name: 'create_file', tool_input: { filePath: path.join(ws, 'a.txt'), content: 'x' } }],
    ['PreToolUse', { tool_name: 'Bash', tool_input: { command: 'cp /bin/true ~/.local/bin/git' }, transcript_path: path.join(root, 't.jsonl'), permission_mode: 'default' }],
    ['PostToolUse', { tool_name: 'run_in_terminal', tool_input: { command: 'ls' }, tool_response: 'a.txt' }],
    ['SubagentStart', { agent_type: 'Plan' }],
    ['PreCompact', {}],
  ];
  for (const role of [undefined, 'jailed']) {
    if (role) values.ALFRED_ROLE = role;
    for (const [event, input] of inputs) {
      const r = await runHook({ event, stdin: JSON.stringify({ hook_event_name: event, session_id: 's', cwd: ws, ...input }), processCwd: ws, openHarness: open });
      assert.equal(r.exitCode, 0, `${event}: ${r.stderr}`);
    }
  }
  assert.ok(read.has('PATH') && read.has('TMPDIR') && read.has('XDG_CONFIG_HOME'), [...read].join(' '));
  const forwarded = new Set<string>(FORWARDED_ENV);
  assert.deepEqual([...read].filter((name) => name !== 'ALFRED_HOME' && name !== 'toJSON' && !forwarded.has(name)).sort(), []);
});
