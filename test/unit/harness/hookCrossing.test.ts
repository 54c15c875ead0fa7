/**
 * The budget line as hook context, once per crossing: on the call that crossed WARNING or EXHAUSTED,
 * or, when another charge crossed (a measured model request, a terminal, @alfred), at the next tool
 * hook; never again on the calls after it at the same level. Refusals at EXHAUSTED stay on every call.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { ModelUsageRecord } from '../../../src/core/usage/types';
import { denyReason, makeEnv, roleFile } from './helpers';

const TIGHT = roleFile('tight', 'shell_policy = "track"');
const WARN_LINE = 'Budget[tight]: tokens 0/1000 (0%) | shell 4/5 (80%) | cost $0.00/$5.00 (0%) → WARNING';
const EXHAUSTED_LINE = 'Budget[tight]: tokens 0/1000 (0%) | shell 5/5 (100%) | cost $0.00/$5.00 (0%) → EXHAUSTED';

function tightEnv() {
  const env = makeEnv({ env: { ALFRED_ROLE: 'tight' }, files: { '.alfred/roles/tight.toml': TIGHT } });
  const context = async (event: string, input: Record<string, unknown>) =>
    (((await env.hook(event, input)).json.hookSpecificOutput as Record<string, unknown> | undefined)?.additionalContext);
  const shell = () => context('PreToolUse', { tool_name: 'run_in_terminal', tool_input: { command: 'make' } });
  const read = () => context('PreToolUse', { tool_name: 'read_file', tool_input: { filePath: 'a.ts' } });
  const output = () => context('PostToolUse', { tool_name: 'read_file', tool_input: { filePath: 'a.ts' }, tool_response: 'tiny' });
  return { env, context, shell, read, output };
}

/** A cost role: $1.00, so a measured $0.85 request is WARNING (85 %). */
function costEnv() {
  const env = makeEnv({ env: { ALFRED_ROLE: 'cents' }, files: { '.alfred/roles/cents.toml': roleFile('cents', '', 'max_context_tokens = 100000\nmax_shell_invocations = 100\nmax_cost_usd = 1.0') } });
  const context = async (event: string, input: Record<string, unknown>) =>
    (((await env.hook(event, input)).json.hookSpecificOutput as Record<string, unknown> | undefined)?.additionalContext);
  return { env, context };
}

/** gpt-4o at $2.50 per million input tokens: 340,000 tokens are exactly $0.85. */
const REQUEST: ModelUsageRecord = {
  id: 'req-1', source: 'copilot-otel', sessionId: 's1', model: 'gpt-4o', inputTokens: 340_000, outputTokens: 0,
  cachedInputTokens: 0, cacheCreationInputTokens: 0, reasoningTokens: 0, at: '2025-06-01T10:00:00.000Z', measured: true,
};
const COST_WARN_LINE = 'Budget[cents]: tokens 0/100000 (0%) | shell 0/100 (0%) | cost $0.85/$1.00 (85%) → WARNING';

describe('the budget line as hook context, once per crossing', () => {
  it('is given on the call that crossed WARNING only, not on the next calls at WARNING (Pre or Post)', async () => {
    const { env, shell, read, output } = tightEnv();
    for (let i = 0; i < 3; i++) assert.equal(await shell(), undefined);
    assert.equal(await shell(), WARN_LINE);
    assert.equal(env.harness.budget().status.signal, 'WARNING');
    assert.equal(await read(), undefined);
    assert.equal(await output(), undefined);
    assert.equal(await read(), undefined);
    assert.equal(env.harness.events({ types: ['BudgetWarning'] }).events.length, 1);
  });

  it('a PostToolUse that crosses gives it, the next PostToolUse does not', async () => {
    const { context } = tightEnv();
    const big = () => context('PostToolUse', { tool_name: 'read_file', tool_response: 'word '.repeat(850) });
    // 851 tokens of o200k_base; their cost priced with the fallback price, so marked estimated (~).
    assert.equal(await big(), 'Budget[tight]: tokens 851/1000 (85%) | shell 0/5 (0%) | cost ~$0.0026/$5.00 (0%) → WARNING');
    assert.equal(await context('PostToolUse', { tool_name: 'read_file', tool_response: 'x' }), undefined);
  });

  it('the EXHAUSTED crossing is given once too; from then on every call is refused, quoting the line', async () => {
    const { env, shell, read } = tightEnv();
    for (let i = 0; i < 4; i++) await shell();
    assert.equal(await shell(), EXHAUSTED_LINE, 'the call that crossed into EXHAUSTED');
    for (let i = 0; i < 3; i++) {
      const reason = denyReason((await env.hook('PreToolUse', { tool_name: 'read_file', tool_input: { filePath: 'a.ts' } })).json);
      assert.ok(reason?.endsWith(EXHAUSTED_LINE), `refused on every call: ${reason}`);
    }
    // ctx_session stays callable, and the crossing was already given.
    assert.equal(await env.hook('PreToolUse', { tool_name: 'ctx_session', tool_input: { action: 'budget' } }).then((a) => a.stdout), '{}');
    assert.equal(await read().catch(() => 'refused'), undefined, 'a refusal carries no additionalContext');
  });

  it('is given again after a reset and a new crossing', async () => {
    const { env, shell, read } = tightEnv();
    for (let i = 0; i < 4; i++) await shell();
    assert.equal(await read(), undefined);
    await env.harness.reset('test');
    for (let i = 0; i < 3; i++) assert.equal(await shell(), undefined);
    assert.equal(await shell(), WARN_LINE);
    assert.equal(await read(), undefined);
  });

  it('a crossing left unannounced is dropped by a reset: the new session starts quiet', async () => {
    const { env, context } = costEnv();
    await env.harness.chargeMeasured([REQUEST]);
    await env.harness.reset('test');
    assert.equal(await context('PreToolUse', { tool_name: 'read_file', tool_input: { filePath: 'a.ts' } }), undefined);
  });

  it('a crossing caused by a measured model charge is announced at the next hook, once', async () => {
    const { env, context } = costEnv();
    const charged = await env.harness.chargeMeasured([REQUEST]);
    assert.deepEqual(charged?.crossed, [{ dimension: 'cost', from: 'OK', to: 'WARNING' }]);
    const read = () => context('PostToolUse', { tool_name: 'read_file', tool_response: 'x' });
    // This PostToolUse's own output (1 token, priced with the fallback price) is in the line too.
    assert.equal(await read(), 'Budget[cents]: tokens 1/100000 (0%) | shell 0/100 (0%) | cost ~$0.85/$1.00 (85%) → WARNING');
    assert.equal(await read(), undefined);
    assert.equal(await context('PreToolUse', { tool_name: 'read_file', tool_input: { filePath: 'a.ts' } }), undefined);
  });

  it('the same, when the hook itself charged the measured request first (Claude Code\'s transcript)', async () => {
    const { env, context } = costEnv();
    const transcript = path.join(env.root, 'session.jsonl');
    // One Sonnet request: 200,000 input tokens at $3 and 15,000 output at $15 = $0.825.
    fs.writeFileSync(transcript, `${JSON.stringify({
      type: 'assistant', uuid: 'u1', sessionId: 'c1', timestamp: '2025-06-01T10:00:00.000Z',
      message: { id: 'msg_1', model: 'claude-sonnet-4-20250514', stop_reason: 'end_turn', usage: { input_tokens: 200_000, output_tokens: 15_000 } },
    })}\n`);
    const claude = { session_id: 'c1', permission_mode: 'default', transcript_path: transcript, tool_name: 'Read', tool_input: { file_path: 'a.ts' } };
    assert.equal(await context('PreToolUse', claude), 'Budget[cents]: tokens 0/100000 (0%) | shell 0/100 (0%) | cost $0.825/$1.00 (82%) → WARNING');
    assert.equal(env.harness.events({ types: ['ModelUsage'] }).events.length, 1);
    assert.equal(await context('PreToolUse', claude), undefined);
  });

  it('two hooks at once after a measured crossing: exactly one of them announces it', async () => {
    const { env, context } = costEnv();
    await env.harness.chargeMeasured([REQUEST]);
    const answers = await Promise.all(Array.from({ length: 4 }, () => context('PreToolUse', { tool_name: 'read_file', tool_input: { filePath: 'a.ts' } })));
    assert.deepEqual(answers.filter((a) => a !== undefined), [COST_WARN_LINE]);
  });

  it('a refusal for another reason keeps the crossing for the next hook that can carry it', async () => {
    const { env, context } = costEnv();
    await env.harness.chargeMeasured([REQUEST]);
    const refused = await env.hook('PreToolUse', { tool_name: 'create_file', tool_input: { filePath: '.alfred/roles/cents.toml', content: 'x' } });
    assert.ok(denyReason(refused.json), 'a governance file is refused');
    assert.doesNotMatch(String(denyReason(refused.json)), /Budget\[/);
    assert.equal(await context('PreToolUse', { tool_name: 'read_file', tool_input: { filePath: 'a.ts' } }), COST_WARN_LINE);
  });

  it('a limit raised back to OK drops the unannounced crossing', async () => {
    const { env, context } = costEnv();
    await env.harness.chargeMeasured([REQUEST]);
    env.write('.alfred/roles/cents.toml', roleFile('cents', '', 'max_context_tokens = 100000\nmax_shell_invocations = 100\nmax_cost_usd = 10.0'));
    env.harness.reloadRoles();
    assert.equal(await context('PreToolUse', { tool_name: 'read_file', tool_input: { filePath: 'a.ts' } }), undefined);
  });
});
