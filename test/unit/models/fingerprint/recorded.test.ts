import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { readCompletions } from '../../../../src/core/workflow/completion/record';
import { verifyCompletion } from '../../../../src/core/workflow/completion/verify';
import { readUsage } from '../../../../src/core/models/usageLog';
import { toolCall } from '../../../../src/core/rules/policy/toolCall';
import { readTraces } from '../../../../src/core/usage/traces/log';
import type { ModelUsageRecord } from '../../../../src/core/usage/types';
import { isolateEnv, newWorkspace, run } from '../../cli/helpers';
import { makeEnv } from '../../harness/helpers';

const sha12 = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 12);
const posixOnly = { skip: process.platform === 'win32' && 'uses a POSIX shell' };
const CHECKS = '[[check]]\nname = "ok"\nrun = "exit 0"\n';

describe('the fingerprint is recorded', () => {
  it('in the completion record verify writes: its checks component is the hash of the checks file', posixOnly, async () => {
    const env = makeEnv({ version: '9.9.9', files: { '.alfred/checks.toml': CHECKS, '.alfred/labels.toml': 'variant = "B"\n' } });
    const outcome = await verifyCompletion(env.harness, { trigger: 'test' });
    assert.equal(outcome.kind, 'recorded');
    const record = readCompletions(env.harness.stateDir).records[0]!;
    const fp = record.fingerprint!;
    assert.equal(fp.components.checks, sha12(CHECKS));
    assert.deepEqual([fp.components.alfred, fp.components.role, fp.components.model, fp.components.pack, fp.components['label.variant']], ['9.9.9', 'coder', 'n/a', 'n/a', 'B']);
    assert.equal(fp.id, env.harness.fingerprint().id);
  });

  it('in each trace, with the model of the call', async () => {
    const env = makeEnv({ pricing: () => ({ model: 'gpt-4o' }), files: { 'AGENTS.md': 'rules' } });
    await env.harness.authorize(toolCall('ctx_shell', { command: 'ls' }), { source: 'tool' });
    const [decision] = readTraces(env.harness.stateDir).entries;
    assert.equal(decision!.fingerprint!.components.model, 'gpt-4o');
    assert.equal(decision!.fingerprint!.components.checks, 'none');
    assert.equal(decision!.fingerprint!.id, env.harness.fingerprint({ model: 'gpt-4o' }).id);
  });

  it("in @alfred's model charge (usage record and ModelUsage event), with its model and endpoint", async () => {
    const env = makeEnv();
    await env.harness.chargeModel({ model: 'gpt-4o', vendor: 'copilot', inputTokens: 10, outputTokens: 5, price: env.harness.priceOf('gpt-4o'), measured: 'counted', source: 'chat' });
    const expected = env.harness.fingerprint({ model: 'gpt-4o', endpoint: 'copilot' });
    assert.deepEqual(readUsage(env.harness.stateDir).records[0]!.fingerprint, expected);
    const event = env.harness.events().events.find((e) => e.type === 'ModelUsage') as unknown as { fingerprint: unknown };
    assert.deepEqual(event.fingerprint, expected);
  });

  it('in each measured charge, with the model of that request', async () => {
    const env = makeEnv();
    const request: ModelUsageRecord = {
      id: 'req-1', source: 'copilot-otel', sessionId: 's1', model: 'claude-x', inputTokens: 100, outputTokens: 1,
      cachedInputTokens: 0, cacheCreationInputTokens: 0, reasoningTokens: 0, at: '2025-06-01T10:00:00.000Z', measured: true,
    };
    await env.harness.chargeMeasured([request]);
    const record = readUsage(env.harness.stateDir).records[0]!;
    assert.equal(record.fingerprint!.components.model, 'claude-x');
    assert.equal(record.fingerprint!.components.endpoint, 'n/a');
    const event = env.harness.events().events.find((e) => e.type === 'ModelUsage') as unknown as { fingerprint: { id: string } };
    assert.equal(event.fingerprint.id, record.fingerprint!.id);
  });
});

describe('a caller that knows more of the configuration', () => {
  it("passes its own fingerprint to a model trace (the chat's pack and persona)", async () => {
    const env = makeEnv();
    const fingerprint = env.harness.fingerprint({ model: 'gpt-4o', endpoint: 'copilot', pack: 'rust', persona: true });
    await env.harness.tracer.model({ role: 'coder', session: null, model: 'gpt-4o', source: 'chat', latencyMs: 5, tokens: { input: 1, output: 1, cached: 0 }, costUsd: 0, estimated: false, fingerprint });
    const [trace] = readTraces(env.harness.stateDir).entries;
    assert.deepEqual([trace!.fingerprint!.components.pack, trace!.fingerprint!.components.persona, trace!.fingerprint!.components.handoff], ['rust', 'on', 'n/a']);
    assert.equal(trace!.fingerprint!.id, fingerprint.id);
  });
});

describe('alfred status --json', () => {
  const ctx = isolateEnv();
  it('prints the current fingerprint', async () => {
    const folder = newWorkspace(ctx.root, { '.alfred/checks.toml': CHECKS });
    const data = JSON.parse((await run(['status', '--json', '--workspace', folder])).stdout) as { fingerprint: { id: string; components: Record<string, string> } };
    assert.equal(data.fingerprint.components.checks, sha12(CHECKS));
    assert.equal(data.fingerprint.components.role, 'coder');
    assert.equal(data.fingerprint.components.promptFiles, 'none');
    assert.match(data.fingerprint.id, /^[0-9a-f]{12}$/);
  });
});
