/**
 * Gemini CLI's real spend: at each of its hooks, the model answers its session file gained since the
 * last hook are charged once, as measured (the file's format: @google/gemini-cli 0.61.0).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { geminiUsageOf } from '../../../src/core/usage/geminiTranscript';
import { makeEnv } from '../harness/helpers';

const SESSION = '7e0c2b1a-4f3d-4a8e-9b6c-1d2e3f4a5b6c';
const line = (data: unknown) => `${JSON.stringify(data)}\n`;
const META = line({ sessionId: SESSION, projectHash: 'abc', startTime: '2026-12-07T00:00:00.000Z', lastUpdated: '2026-12-07T00:00:00.000Z', kind: 'main' });
const USER = line({ id: 'u1', timestamp: '2026-12-07T00:00:01.000Z', type: 'user', content: [{ text: 'hi' }] });
// An answer is written first without its usage, then again under the same id with it.
const A1_BARE = line({ id: 'a1', timestamp: '2026-12-07T00:00:02.000Z', type: 'gemini', content: 'x', model: 'gemini-2.5-flash' });
const A1 = line({ id: 'a1', timestamp: '2026-12-07T00:00:02.000Z', type: 'gemini', content: 'x', model: 'gemini-2.5-flash', tokens: { input: 1000, output: 200, cached: 0, thoughts: 50, tool: 0, total: 1250 } });
const A2 = line({ id: 'a2', timestamp: '2026-12-07T00:00:05.000Z', type: 'gemini', content: 'y', model: 'gemini-2.5-flash', tokens: { input: 3000, output: 100, cached: 0, thoughts: 0, tool: 10, total: 3110 } });
/** gemini-2.5-flash: $0.30 in, $2.50 out per million; thoughts are output, tool-use prompt tokens input. */
const EXPECTED_USD = ((1000 + 3010) * 0.3 + (250 + 100) * 2.5) / 1e6;

const input = (transcript: string) => ({
  session_id: SESSION, transcript_path: transcript, cwd: '/w', hook_event_name: 'BeforeTool', timestamp: '2026-12-07T00:00:06Z',
  tool_name: 'read_file', tool_input: { file_path: 'a.ts' },
});

describe('Gemini CLI\'s measured spend', () => {
  it('a model answer with its usage is one record: thoughts counted as output, tool-use prompt tokens as input', () => {
    assert.deepEqual(geminiUsageOf(A1.trim(), SESSION, 'now'), {
      id: 'gemini:a1', source: 'gemini-transcript', sessionId: SESSION, model: 'gemini-2.5-flash', inputTokens: 1000, outputTokens: 250,
      cachedInputTokens: 0, cacheCreationInputTokens: 0, reasoningTokens: 50, at: '2026-12-07T00:00:02.000Z', measured: true,
    });
    for (const other of [META, USER, A1_BARE, 'not json', '[]']) assert.equal(geminiUsageOf(other.trim(), SESSION, 'now'), undefined, other);
  });

  it('charges each answer once as the file grows, the same id written twice included, with the session\'s id', async () => {
    const env = makeEnv();
    const transcript = path.join(env.root, 'session-2026-12-07T00-00-7e0c2b1a.jsonl');
    fs.writeFileSync(transcript, META + USER + A1_BARE);
    await env.hook('BeforeTool', input(transcript));
    assert.equal(env.harness.budget().status.dimensions.cost.used, 0, 'no usage written yet');
    fs.appendFileSync(transcript, A1 + A2);
    await env.hook('BeforeTool', input(transcript));
    await env.hook('BeforeTool', input(transcript));
    fs.appendFileSync(transcript, A2);
    await env.hook('AfterTool', { ...input(transcript), hook_event_name: 'AfterTool', tool_response: { llmContent: 'a' } });
    assert.ok(Math.abs(env.harness.budget().status.dimensions.cost.used - EXPECTED_USD) < 1e-12, `${env.harness.budget().status.dimensions.cost.used} vs ${EXPECTED_USD}`);
    const usage = env.harness.events({ types: ['ModelUsage'] }).events;
    assert.deepEqual(usage.map((e) => [e.source, e.agentSession, e.inputTokens]), [['gemini-transcript', SESSION, 1000], ['gemini-transcript', SESSION, 3010]]);
  });
});
