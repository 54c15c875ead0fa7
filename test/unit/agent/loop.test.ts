/** The headless agent loop against the loopback model server: tools through the gate, charges, and every way it stops. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runAgentLoop } from '../../../src/core/agent/loop';
import { providerModel } from '../../../src/core/agent/model';
import { readUsage } from '../../../src/core/models/usageLog';
import { readOperations } from '../../../src/core/workflow/operations/store';
import type { ChatMessage, ProviderConfig } from '../../../src/core/models/providers/types';
import { startFakeModelServer, type FakeModelServer } from '../../support/fakeModelServer';
import { makeEnv, roleFile } from '../harness/helpers';

let server: FakeModelServer;
before(async () => { server = await startFakeModelServer(); });
after(() => server.close());

const provider = (): ProviderConfig => ({ name: 'fake', protocol: 'openai', baseUrl: `${server.url}/v1`, key: { kind: 'none' }, models: [{ id: 'fake-model' }] });
const prompt = (text: string): ChatMessage[] => [{ role: 'user', parts: [{ type: 'text', text }] }];
const call = (id: string, name: string, input: unknown) => ({ id, name, arguments: [JSON.stringify(input)] });
type Body = { tools?: Array<{ function: { name: string } }>; messages: Array<{ role: string; content: unknown; tool_call_id?: string }> };

describe('runAgentLoop', () => {
  it('runs the tools the model calls through the gate, feeds their results back, charges each request from its reported usage, and ends on the answer', async () => {
    const env = makeEnv();
    server.script([
      { toolCalls: [call('c1', 'ctx_edit', { path: 'notes.txt', newString: 'hello\n' })], usage: { inputTokens: 100, outputTokens: 20 } },
      { text: ['Done.'], usage: { inputTokens: 150, outputTokens: 5 } },
    ]);
    const first = server.requests.length;
    const result = await runAgentLoop({ harness: env.harness, model: providerModel(provider(), 'fake-model', undefined), messages: prompt('Write notes.txt'), maxToolRounds: 5, source: 'trial' });

    assert.equal(result.stopped, 'done');
    assert.equal(result.answer, 'Done.');
    assert.equal(fs.readFileSync(path.join(env.ws, 'notes.txt'), 'utf8'), 'hello\n');
    assert.deepEqual(result.toolCalls.map((c) => [c.name, c.refused, c.failed]), [['ctx_edit', false, false]]);
    assert.deepEqual({ ...result.usage, costUsd: undefined }, { requests: 2, inputTokens: 250, outputTokens: 25, costUsd: undefined });
    const bodies = server.requests.slice(first).map((r) => r.body as Body);
    assert.deepEqual(bodies[0]!.tools!.map((t) => t.function.name), ['ctx_read', 'ctx_search', 'ctx_tree', 'ctx_edit', 'ctx_shell']);
    const toolMessage = bodies[1]!.messages.find((m) => m.role === 'tool');
    assert.deepEqual(toolMessage, { role: 'tool', tool_call_id: 'c1', content: 'Created notes.txt (1 line).' });
    const usage = readUsage(env.harness.stateDir).records;
    assert.deepEqual(usage.map((u) => [u.source, u.inputTokens, u.outputTokens, u.measured]), [['trial', 100, 20, 'reported'], ['trial', 150, 5, 'reported']]);
    assert.equal(usage[0]!.fingerprint?.components.model, 'fake-model');
    assert.equal(usage[0]!.fingerprint?.components.endpoint, `${server.url}/v1`);
  });

  it('offers a reviewer no edit or shell tool, and a call it makes anyway is refused by the gate and answered to the model', async () => {
    const env = makeEnv({ env: { ALFRED_ROLE: 'reviewer' } });
    server.script([
      { toolCalls: [call('c1', 'ctx_edit', { path: 'x.txt', newString: 'x' })], usage: { inputTokens: 10, outputTokens: 2 } },
      { text: ['I may not edit.'], usage: { inputTokens: 12, outputTokens: 4 } },
    ]);
    const first = server.requests.length;
    const result = await runAgentLoop({ harness: env.harness, model: providerModel(provider(), 'fake-model', undefined), messages: prompt('Edit x'), maxToolRounds: 5 });
    assert.equal(result.stopped, 'done');
    assert.equal(fs.existsSync(path.join(env.ws, 'x.txt')), false);
    assert.deepEqual(result.toolCalls.map((c) => [c.name, c.refused, c.code]), [['ctx_edit', true, 'tool-denied']]);
    const bodies = server.requests.slice(first).map((r) => r.body as Body);
    assert.deepEqual(bodies[0]!.tools!.map((t) => t.function.name), ['ctx_read', 'ctx_search', 'ctx_tree']);
  });

  it('stops as budget once the token limit is used, before the next request', async () => {
    const env = makeEnv({ files: { 'a.txt': 'a\n' } });
    server.script([{ toolCalls: [call('c1', 'ctx_read', { path: 'a.txt' })], usage: { inputTokens: 450, outputTokens: 60 } }]);
    const first = server.requests.length;
    const result = await runAgentLoop({ harness: env.harness, model: providerModel(provider(), 'fake-model', undefined), messages: prompt('Read a'), maxToolRounds: 5, tokenLimit: 500 });
    assert.equal(result.stopped, 'budget');
    assert.equal(result.usage.requests, 1);
    assert.equal(server.requests.length - first, 1);
    assert.equal(result.toolCalls.length, 1, 'the round it was in still ran');
  });

  it('never sends a request that could pass the role\'s cost cap: stops as over-cap with nothing sent', async () => {
    const env = makeEnv({ env: { ALFRED_ROLE: 'tiny' }, files: { '.alfred/roles/tiny.toml': roleFile('tiny', '', 'max_context_tokens = 1000\nmax_shell_invocations = 5\nmax_cost_usd = 0.001') } });
    server.script([{ text: ['never sent'] }]);
    const first = server.requests.length;
    const result = await runAgentLoop({ harness: env.harness, model: providerModel(provider(), 'fake-model', undefined), messages: prompt('Hi'), maxToolRounds: 5 });
    assert.equal(result.stopped, 'over-cap');
    assert.equal(server.requests.length - first, 0);
    server.script([]);
  });

  it('stops as timeout at its deadline, mid-request', async () => {
    const env = makeEnv();
    server.script([{ text: ['late'], firstByteDelayMs: 5000 }]);
    const t0 = Date.now();
    const result = await runAgentLoop({ harness: env.harness, model: providerModel(provider(), 'fake-model', undefined), messages: prompt('Hi'), maxToolRounds: 5, deadline: Date.now() + 300 });
    assert.equal(result.stopped, 'timeout');
    assert.ok(Date.now() - t0 < 3000, `stopped in ${Date.now() - t0} ms`);
  });

  it('stops as interrupted when its signal is aborted, and as error when the model fails', async () => {
    const env = makeEnv();
    const abort = new AbortController();
    abort.abort();
    const interrupted = await runAgentLoop({ harness: env.harness, model: providerModel(provider(), 'fake-model', undefined), messages: prompt('Hi'), maxToolRounds: 5, signal: abort.signal });
    assert.equal(interrupted.stopped, 'interrupted');
    server.script([{ status: 500, error: 'upstream broke' }]);
    const failed = await runAgentLoop({ harness: env.harness, model: providerModel(provider(), 'fake-model', undefined), messages: prompt('Hi'), maxToolRounds: 5 });
    assert.equal(failed.stopped, 'error');
    assert.match(failed.error!.message, /upstream broke/);
  });

  it('runs a shell command as a persisted operation, counted against the shell budget, its output fed back', async () => {
    const env = makeEnv();
    server.script([
      { toolCalls: [call('s1', 'ctx_shell', { command: 'echo hi > out.txt && cat out.txt' })] },
      { text: ['Ran it.'] },
    ]);
    const first = server.requests.length;
    const result = await runAgentLoop({ harness: env.harness, model: providerModel(provider(), 'fake-model', undefined), messages: prompt('Run it'), maxToolRounds: 5 });
    assert.equal(result.stopped, 'done');
    assert.equal(fs.readFileSync(path.join(env.ws, 'out.txt'), 'utf8'), 'hi\n');
    const toolMessage = (server.requests[first + 1]!.body as Body).messages.find((m) => m.role === 'tool')!;
    assert.match(String(toolMessage.content), /^\$ echo hi > out\.txt && cat out\.txt\nhi\nexit code: 0/);
    assert.equal(env.harness.budget().status.dimensions.shell.used, 1);
    const ops = readOperations(env.harness.stateDir).operations;
    assert.deepEqual(ops.map((o) => [o.tool, o.state, o.exitCode]), [['ctx_shell', 'succeeded', 0]]);
  });

  it('stops after the round limit when the model keeps calling tools', async () => {
    const env = makeEnv({ files: { 'a.txt': 'a\n' } });
    server.script([
      { toolCalls: [call('c1', 'ctx_read', { path: 'a.txt' })] },
      { toolCalls: [call('c2', 'ctx_read', { path: 'a.txt', startLine: 1 })] },
    ]);
    const result = await runAgentLoop({ harness: env.harness, model: providerModel(provider(), 'fake-model', undefined), messages: prompt('Read'), maxToolRounds: 1 });
    assert.equal(result.stopped, 'rounds');
    assert.equal(result.toolRounds, 1);
    assert.equal(result.usage.requests, 2);
  });
});
