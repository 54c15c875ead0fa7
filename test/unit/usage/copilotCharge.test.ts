/**
 * Copilot's real spend at its hooks: the usage records its OTel export brought to the spool are
 * charged to the workspace whose hooks saw their session, priced with the editor's prices, once; its
 * tool outputs add no estimated cost while the export reaches Alfred; an exhausted budget pauses it.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { appendToSpool, EXPORT_MARKER_FILE, spoolPath, usageHome } from '../../../src/core/usage/copilotSpool';
import { OtelUsageReader } from '../../../src/core/usage/otelSpans';
import { makeEnv } from '../harness/helpers';

const SESSION = 'a1b2c3d4-copilot-session';
const PRICE = { inputPerMTok: 2, cachedInputPerMTok: 0.5, outputPerMTok: 10 };
const kv = (attrs: Record<string, string | number>) => Object.entries(attrs).map(([key, v]) => ({ key, value: typeof v === 'string' ? { stringValue: v } : { intValue: v } }));
/** An invoke_agent span as Copilot exports it for an extension's model reporting usage. */
const turn = (spanId: string, session: string, input: number, cached: number, output: number) => ({
  resourceSpans: [{ resource: { attributes: kv({ 'service.name': 'copilot-chat' }) }, scopeSpans: [{ scope: { name: 'copilot-chat' }, spans: [{
    traceId: 'feedfeedfeedfeedfeedfeedfeedfeed', spanId, name: 'invoke_agent GitHub Copilot Chat', kind: 1,
    startTimeUnixNano: '1796140000000000000', endTimeUnixNano: '1796140001000000000',
    attributes: kv({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.conversation.id': session, 'copilot_chat.session_id': session, 'gen_ai.response.model': 'scripted-a', 'gen_ai.usage.input_tokens': input, 'gen_ai.usage.output_tokens': output, 'gen_ai.usage.cache_read.input_tokens': cached }),
  }] }] }],
});
const copilotInput = (extra: Record<string, unknown> = {}) => ({ hook_event_name: 'PreToolUse', session_id: SESSION, tool_name: 'read_file', tool_input: { filePath: 'a.ts' }, ...extra });

function setup(files?: Record<string, string>, roleSetting?: string) {
  const env = makeEnv({ ...(files ? { files } : {}), ...(roleSetting ? { roleSetting } : {}), pricing: () => ({ overrides: { 'scripted-a': PRICE } }) });
  const reader = new OtelUsageReader();
  const spool = spoolPath({ ALFRED_HOME: env.alfredHome });
  return { env, exported: (body: unknown) => appendToSpool(spool, reader.ingest(body)) };
}

describe('Copilot\'s measured spend at its hooks', () => {
  it('charges the session\'s exported turns once each, at the next hook, priced with cached input as cached', async () => {
    const { env: priced, exported } = setup();
    await priced.hook('UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', session_id: SESSION, prompt: 'go' });
    exported(turn('t1', SESSION, 12_000, 10_000, 400));
    exported(turn('t2', 'someone-else', 50_000, 0, 50_000));
    await priced.hook('PreToolUse', copilotInput());
    await priced.hook('PreToolUse', copilotInput());
    const expected = (2_000 * 2 + 10_000 * 0.5 + 400 * 10) / 1e6;
    assert.ok(Math.abs(priced.harness.budget().status.dimensions.cost.used - expected) < 1e-12, `${priced.harness.budget().status.dimensions.cost.used}`);
    const usage = priced.harness.events({ types: ['ModelUsage'] }).events;
    assert.deepEqual(usage.map((e) => [e.source, e.agentSession, e.model, e.inputTokens, e.cachedInputTokens, e.outputTokens, e.measured]),
      [['copilot-otel', SESSION, 'scripted-a', 12_000, 10_000, 400, 'reported']]);
  });

  it('while the export reaches Alfred, a tool output is context tokens only; without it, its cost is estimated', async () => {
    const { env: priced } = setup();
    const env = priced;
    const output = { hook_event_name: 'PostToolUse', session_id: SESSION, tool_name: 'read_file', tool_input: {}, tool_response: 'x'.repeat(4000) };
    await priced.hook('PostToolUse', output);
    const estimated = priced.harness.budget().status.dimensions.cost.used;
    assert.ok(estimated > 0, 'no export: the output is priced as input of the next request');
    fs.mkdirSync(usageHome({ ALFRED_HOME: env.alfredHome }), { recursive: true });
    fs.writeFileSync(path.join(usageHome({ ALFRED_HOME: env.alfredHome }), EXPORT_MARKER_FILE), '{}');
    const tokens = priced.harness.budget().status.dimensions.tokens.used;
    await priced.hook('PostToolUse', output);
    assert.equal(priced.harness.budget().status.dimensions.cost.used, estimated, 'measured: no estimate on top');
    assert.ok(priced.harness.budget().status.dimensions.tokens.used > tokens, 'the context tokens still count');
  });

  it('a turn that exhausts the budget: the next prompt is stopped with how to go on, the next tool call refused', async () => {
    const { env: priced, exported } = setup({ '.alfred/roles/frugal.toml': '[role]\nname = "frugal"\ninherits = "coder"\ndescription = "one cent"\n[limits]\nmax_cost_usd = 0.01\n' }, 'frugal');
    await priced.hook('UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', session_id: SESSION, prompt: 'go' });
    exported(turn('t1', SESSION, 20_000, 10_000, 1_000));
    const stopped = await priced.hook('UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', session_id: SESSION, prompt: 'more' });
    assert.equal(stopped.json.continue, false);
    assert.match(String(stopped.json.stopReason), /^Alfred paused this agent: the budget of role frugal is exhausted\. Budget\[frugal\]: .*cost \$0\.035\/\$0\.01 \(350%\) → EXHAUSTED\nTo go on: reset the budget/);
    const refused = await priced.hook('PreToolUse', copilotInput());
    const out = refused.json.hookSpecificOutput as { permissionDecision: string; permissionDecisionReason: string };
    assert.equal(out.permissionDecision, 'deny');
    assert.match(out.permissionDecisionReason, /^Alfred \(role frugal\): Budget exhausted: cost/);
  });
});


describe('the prices the window publishes for hooks and the CLI', () => {
  it('are read back as written, re-read when they change, and absent means the table alone', async () => {
    const { publishPricing, publishedPricingReader } = await import('../../../src/core/rules/budget/pricingFile');
    const dir = fs.mkdtempSync(path.join((await import('node:os')).tmpdir(), 'alfred-pricing-'));
    const read = publishedPricingReader(dir);
    assert.deepEqual(read(), {});
    publishPricing(dir, { overrides: { 'scripted-a': PRICE }, model: 'gpt-4o' });
    assert.deepEqual(read(), { overrides: { 'scripted-a': PRICE }, model: 'gpt-4o' });
    publishPricing(dir, { fallback: { inputPerMTok: 1, outputPerMTok: 1 } });
    assert.deepEqual(read(), { fallback: { inputPerMTok: 1, outputPerMTok: 1 } });
  });
});
