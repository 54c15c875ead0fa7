/** The gate through handleHook and the Harness: role rules, shell charges, refusals and their events. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sandboxAvailable } from '../adversarial/sandboxed';
import { denyReason, makeEnv, roleFile } from './helpers';

const WRITE_TOOLS: [string, Record<string, unknown>][] = [
  ['run_in_terminal', { command: 'ls' }],
  ['runInTerminal', { command: 'ls' }],
  ['Bash', { command: 'ls' }],
  ['bash', { command: 'ls' }],
  ['editFiles', { filePath: 'src/a.ts' }],
  ['replace_string_in_file', { filePath: 'src/a.ts', oldString: 'a', newString: 'b' }],
  ['Edit', { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' }],
];

describe('reviewer through PreToolUse', () => {
  for (const [tool, toolInput] of WRITE_TOOLS) {
    it(`refuses ${tool} with a reason and a PolicyViolation event`, async () => {
      const env = makeEnv({ env: { ALFRED_ROLE: 'reviewer' } });
      const answer = await env.hook('PreToolUse', { hook_event_name: 'PreToolUse', tool_name: tool, tool_input: toolInput });
      assert.equal(answer.exitCode, 0);
      const reason = denyReason(answer.json);
      assert.ok(reason, `${tool} refused: ${answer.stdout}`);
      assert.match(reason, new RegExp(`^Alfred \\(role reviewer\\): .*${tool}`));
      assert.equal((answer.json.hookSpecificOutput as Record<string, unknown>).hookEventName, 'PreToolUse');
      const events = env.harness.events().events;
      const violation = events.find((e) => e.type === 'PolicyViolation');
      assert.ok(violation, 'a PolicyViolation was logged');
      assert.equal(violation.tool, tool);
      assert.equal(violation.role, 'reviewer');
      assert.equal(violation.source, 'hook:PreToolUse');
      assert.equal(env.harness.budget().status.dimensions.shell.used, 0, 'a refusal charges nothing');
    });
  }

  it('names the agent\'s own tools in the refusal, never Alfred\'s ctx_ tools', async () => {
    const env = makeEnv({ env: { ALFRED_ROLE: 'reviewer' } });
    const claude = await env.hook('PreToolUse', { hook_event_name: 'PreToolUse', permission_mode: 'default', transcript_path: '/nonexistent/t.jsonl', tool_name: 'Write', tool_input: { file_path: 'a.ts', content: 'x' } });
    assert.equal(denyReason(claude.json), 'Alfred (role reviewer): Tool Write is denied for role reviewer by the pattern "@edit". Role reviewer is read-only: use Read, Grep or Glob.');
    const cli = await env.hook('preToolUse', { toolName: 'bash', toolArgs: '{"command":"ls"}' });
    assert.equal(JSON.parse(cli.stdout).permissionDecisionReason, 'Alfred (role reviewer): Role reviewer does not run shell commands (shell policy deny), so bash is refused. Role reviewer is read-only: use view, grep or glob.');
    const vscode = await env.hook('PreToolUse', { hook_event_name: 'PreToolUse', tool_name: 'run_in_terminal', tool_input: { command: 'ls' } });
    assert.match(denyReason(vscode.json) ?? '', /read-only: use ctx_read or ctx_search\.$/, 'VS Code\'s agent can call Alfred\'s tools');
  });

  it('lets reads through with an empty answer', async () => {
    const env = makeEnv({ env: { ALFRED_ROLE: 'reviewer' } });
    for (const tool of ['read_file', 'Read', 'grep_search', 'ctx_session']) {
      const answer = await env.hook('PreToolUse', { tool_name: tool, tool_input: { filePath: 'a.ts' } });
      assert.equal(answer.stdout, '{}', tool);
    }
    assert.equal(env.harness.events({ types: ['PolicyViolation'] }).events.length, 0);
  });

  it('answers the Copilot CLI (camelCase event) with top-level fields', async () => {
    const env = makeEnv({ env: { ALFRED_ROLE: 'reviewer' } });
    const answer = await env.hook('preToolUse', { toolName: 'bash', toolArgs: '{"command":"rm -rf /"}' });
    assert.equal(answer.json.permissionDecision, 'deny');
    assert.match(String(answer.json.permissionDecisionReason), /role reviewer/);
    assert.equal('hookSpecificOutput' in answer.json, false);
  });

  it('refuses a call whose tool it cannot tell', async () => {
    const env = makeEnv();
    const answer = await env.hook('PreToolUse', { tool_input: {} });
    assert.match(denyReason(answer.json) ?? '', /no tool_name/);
  });
});

describe('coder through PreToolUse', () => {
  it('allows shell and edit tools, charging one shell call per new shell invocation', async () => {
    const env = makeEnv();
    const expected = [1, 2, 3, 4, 4, 4, 4];
    for (const [i, [tool, toolInput]] of WRITE_TOOLS.entries()) {
      const answer = await env.hook('PreToolUse', { tool_name: tool, tool_input: toolInput });
      assert.equal(denyReason(answer.json), undefined, tool);
      assert.doesNotMatch(answer.stdout, /permissionDecision/, `${tool}: never allow, which would skip the agent's own confirmation`);
      assert.equal(env.harness.budget().status.dimensions.shell.used, expected[i], tool);
    }
    assert.equal(env.harness.events({ types: ['PolicyViolation'] }).events.length, 0);
  });

  it('Codex\'s exec_command is a shell call: charged, and refused where it would change Alfred\'s own rules', async () => {
    const env = makeEnv();
    const codex = (command: string) => env.hook('PreToolUse', { hook_event_name: 'PreToolUse', turn_id: 't1', tool_name: 'exec_command', tool_input: { command } });
    assert.equal(denyReason((await codex('npm test')).json), undefined);
    assert.equal(env.harness.budget().status.dimensions.shell.used, 1);
    assert.match(denyReason((await codex('alfred role admin')).json) ?? '', /^Alfred \(role coder\): exec_command may not run alfred role NAME/);
    assert.equal(env.harness.events({ types: ['ToolCall'] }).events.at(-1)?.code, 'self-governance');
  });

  it('does not charge reading a terminal\'s output', async () => {
    const env = makeEnv();
    await env.hook('PreToolUse', { tool_name: 'run_in_terminal', tool_input: { command: 'npm test' } });
    for (const tool of ['get_terminal_output', 'BashOutput', 'read_bash']) {
      assert.equal((await env.hook('PreToolUse', { tool_name: tool, tool_input: { id: 't1' } })).stdout, '{}');
    }
    assert.equal(env.harness.budget().status.dimensions.shell.used, 1);
    const decisions = env.harness.events({ types: ['ToolCall'] }).events.map((e) => [e.tool, (e.charge as { shell: number }).shell]);
    assert.deepEqual(decisions, [['run_in_terminal', 1], ['get_terminal_output', 0], ['BashOutput', 0], ['read_bash', 0]]);
  });
});

describe('a role that requires the kernel sandbox, through PreToolUse', () => {
  const BOXED = roleFile('boxed', 'shell_policy = "track"\nsandbox = "required"');
  // Each agent's shell call as its real client sends it.
  const calls: [string, string, Record<string, unknown>][] = [
    ['Copilot in VS Code', 'PreToolUse', { hook_event_name: 'PreToolUse', tool_name: 'run_in_terminal', tool_input: { command: 'make' } }],
    ['Claude Code', 'PreToolUse', { hook_event_name: 'PreToolUse', permission_mode: 'default', transcript_path: '/nonexistent/t.jsonl', tool_name: 'Bash', tool_input: { command: 'make', description: 'build' } }],
    ['the Copilot CLI', 'preToolUse', { toolName: 'bash', toolArgs: JSON.stringify({ command: 'make', description: 'build' }) }],
  ];
  for (const [agent, event, input] of calls) {
    it(`${agent}: the command runs in the sandbox, with no decision (the agent's own confirmation stays)`, { skip: !sandboxAvailable() && 'no kernel sandbox here' }, async () => {
      const env = makeEnv({ env: { ALFRED_ROLE: 'boxed' }, files: { '.alfred/roles/boxed.toml': BOXED } });
      const answer = await env.hook(event, input);
      assert.doesNotMatch(answer.stdout, /permissionDecision/);
      const specific = answer.json.hookSpecificOutput as Record<string, unknown> | undefined;
      const rewritten = (specific?.updatedInput ?? answer.json.modifiedArgs) as Record<string, unknown>;
      assert.match(String(rewritten.command), /alfred-sandbox [0-9a-f]+ 'make'$/);
      if (agent !== 'Copilot in VS Code') assert.equal(rewritten.description, 'build', 'the other fields are kept');
      assert.equal(env.harness.budget().status.dimensions.shell.used, 1);
    });
  }

  it('Codex, which applies a rewrite only with allow: refused, as nothing would hold it in the sandbox', { skip: !sandboxAvailable() && 'no kernel sandbox here' }, async () => {
    const env = makeEnv({ env: { ALFRED_ROLE: 'boxed' }, files: { '.alfred/roles/boxed.toml': BOXED } });
    const answer = await env.hook('PreToolUse', { hook_event_name: 'PreToolUse', turn_id: 't1', tool_name: 'Bash', tool_input: { command: 'make' } });
    assert.equal(denyReason(answer.json), 'Alfred (role boxed): Bash cannot be run in the kernel sandbox from here (this agent does not let Alfred rewrite its command), and role boxed requires one (sandbox = "required"). Ask the user to switch role to run it.');
    assert.equal(env.harness.budget().status.dimensions.shell.used, 0);
  });
});
