/** Budget charges and signals through handleHook: tokens of tool output, WARNING context (hookCrossing.test.ts: once per crossing), EXHAUSTED refusals. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countTokens } from '../../../src/core/rules/budget/tokens';
import { sandboxAvailable } from '../adversarial/sandboxed';
import { denyReason, makeEnv, roleFile } from './helpers';

// 5 shell calls: 4 reach 80 % (WARNING), 5 reach 100 % (EXHAUSTED).
const TIGHT = roleFile('tight', 'shell_policy = "track"');

function tightEnv() {
  const env = makeEnv({ env: { ALFRED_ROLE: 'tight' }, files: { '.alfred/roles/tight.toml': TIGHT } });
  const shell = () => env.hook('PreToolUse', { tool_name: 'run_in_terminal', tool_input: { command: 'make' } });
  return { env, shell };
}

describe('PostToolUse', () => {
  it('charges the tokens of a string tool_response, with a ToolCall result event', async () => {
    const env = makeEnv();
    const output = 'export function add(a: number, b: number) {\n  return a + b;\n}\n'.repeat(20);
    const answer = await env.hook('PostToolUse', { tool_name: 'read_file', tool_input: { filePath: 'a.ts' }, tool_response: output });
    assert.equal(answer.stdout, '{}');
    const tokens = await countTokens(output);
    assert.ok(tokens > 0);
    assert.equal(env.harness.budget().status.dimensions.tokens.used, tokens);
    const [event] = env.harness.events({ types: ['ToolCall'] }).events;
    assert.equal(event?.phase, 'result');
    assert.equal((event?.charge as { tokens: number }).tokens, tokens);
    assert.equal(event?.source, 'hook:PostToolUse');
  });

  it('charges an object tool_response as its JSON text', async () => {
    const env = makeEnv();
    const response = { content: 'hello world', lines: 1 };
    await env.hook('PostToolUse', { tool_name: 'Read', tool_response: response });
    assert.equal(env.harness.budget().status.dimensions.tokens.used, await countTokens(JSON.stringify(response)));
  });

  it('charges nothing without a tool name or a response', async () => {
    const env = makeEnv();
    assert.equal((await env.hook('PostToolUse', { tool_response: 'text' })).stdout, '{}');
    await env.hook('PostToolUse', { tool_name: 'read_file' });
    assert.equal(env.harness.budget().status.dimensions.tokens.used, 0);
  });

  it('adds the budget line once the tokens reach WARNING', async () => {
    const env = makeEnv({ env: { ALFRED_ROLE: 'tight' }, files: { '.alfred/roles/tight.toml': TIGHT } });
    const answer = await env.hook('PostToolUse', { tool_name: 'read_file', tool_response: 'word '.repeat(850) });
    const context = (answer.json.hookSpecificOutput as Record<string, unknown> | undefined)?.additionalContext;
    assert.equal(context, env.harness.budget().line);
    assert.match(String(context), /^Budget\[tight\]: tokens \d+\/1000 \((8\d|9\d)%\) .* → WARNING$/);
  });
});

describe('PreToolUse and the budget signals', () => {
  it('at WARNING, adds additionalContext with the exact budget line', async () => {
    const { env, shell } = tightEnv();
    // Below WARNING nothing is added (the command itself may come back rewritten to run in the sandbox).
    for (let i = 0; i < 3; i++) assert.doesNotMatch((await shell()).stdout, /additionalContext|"deny"/);
    const answer = await shell();
    const specific = (answer.json as { hookSpecificOutput: Record<string, unknown> }).hookSpecificOutput;
    assert.equal(specific.hookEventName, 'PreToolUse');
    assert.equal(specific.additionalContext, 'Budget[tight]: tokens 0/1000 (0%) | shell 4/5 (80%) | cost $0.00/$5.00 (0%) → WARNING');
    assert.equal(specific.permissionDecision, undefined, 'never allow: the agent\'s own confirmation stays');
    assert.equal(env.harness.events({ types: ['BudgetWarning'] }).events.length, 1);
  });

  it('at the WARNING crossing, the Copilot CLI gets additionalContext at the top level', async () => {
    const { env } = tightEnv();
    for (let i = 0; i < 3; i++) await env.hook('preToolUse', { toolName: 'bash', toolArgs: { command: 'make' } });
    const { additionalContext, ...rest } = (await env.hook('preToolUse', { toolName: 'bash', toolArgs: { command: 'make' } })).json as Record<string, unknown>;
    assert.equal(additionalContext, 'Budget[tight]: tokens 0/1000 (0%) | shell 4/5 (80%) | cost $0.00/$5.00 (0%) → WARNING');
    // Besides, where there is a kernel sandbox, the command itself comes back rewritten to run in it.
    if (sandboxAvailable()) assert.match(String((rest.modifiedArgs as { command?: unknown }).command), /alfred-sandbox [0-9a-f]+ 'make'$/);
    assert.deepEqual(Object.keys(rest), sandboxAvailable() ? ['modifiedArgs'] : []);
    assert.deepEqual((await env.hook('preToolUse', { toolName: 'view', toolArgs: { path: 'a' } })).json, {}, 'once per crossing');
  });

  it('at EXHAUSTED, refuses everything but ctx_session, quoting the budget line', async () => {
    const { env, shell } = tightEnv();
    for (let i = 0; i < 5; i++) await shell();
    assert.equal(env.harness.budget().status.signal, 'EXHAUSTED');
    assert.equal(env.harness.events({ types: ['BudgetExhausted'] }).events.length, 1);
    for (const tool of ['read_file', 'Read', 'run_in_terminal', 'get_terminal_output', 'editFiles', 'mcp__x__y', 'ctx_read']) {
      const reason = denyReason((await env.hook('PreToolUse', { tool_name: tool, tool_input: {} })).json);
      assert.ok(reason, `${tool} refused`);
      assert.match(reason, /Budget exhausted: shell 5\/5 \(100%\) reached the block limit of role tight\./);
      assert.match(reason, /Budget\[tight\]: tokens 0\/1000 \(0%\) \| shell 5\/5 \(100%\) \| cost \$0\.00\/\$5\.00 \(0%\) → EXHAUSTED$/);
    }
    const session = await env.hook('PreToolUse', { tool_name: 'ctx_session', tool_input: { action: 'budget' } });
    assert.equal(denyReason(session.json), undefined);
    assert.equal(env.harness.budget().status.dimensions.shell.used, 5, 'refusals charge nothing');
  });

  it('a reset ends the exhaustion', async () => {
    const { env, shell } = tightEnv();
    for (let i = 0; i < 5; i++) await shell();
    await env.harness.reset('test');
    assert.doesNotMatch((await shell()).stdout, /additionalContext|"deny"/);
    assert.equal(env.harness.budget().status.dimensions.shell.used, 1);
  });
});
