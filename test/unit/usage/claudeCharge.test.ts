/**
 * Claude Code's real spend: at each of its hooks, the model requests its transcript gained since the
 * last hook are priced (cache reads and writes at their own prices) and charged once to the cost
 * budget as measured; the tool outputs' estimated cost is not added on top; an exhausted budget stops
 * the next prompt with the budget line and how to go on.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { makeEnv, roleFile } from '../harness/helpers';

const FIXTURE = fs.readFileSync(path.resolve(__dirname, '../../fixtures/usage/claude-transcript.jsonl'), 'utf8');
const LINES = FIXTURE.split('\n').filter(Boolean);
/**
 * The fixture's five completed API messages, priced by hand (USD per million tokens; Sonnet 3 / 15,
 * cache read 0.3, write 3.75; Haiku 1 / 5, 0.1, 1.25): plain input + cache reads + cache writes + output.
 */
const EXPECTED_USD = (3 * 3 + 12400 * 0.3 + 5210 * 3.75 + 231 * 15
  + 4 * 1 + 2150 * 1.25 + 97 * 5
  + 6 * 1 + 2150 * 0.1 + 410 * 1.25 + 140 * 5
  + 1 * 3 + 17610 * 0.3 + 890 * 3.75 + 4 * 15
  + 2 * 3 + 18500 * 0.3 + 1320 * 3.75 + 388 * 15) / 1e6;

function claudeInput(transcript: string, extra: Record<string, unknown> = {}) {
  return { hook_event_name: 'PreToolUse', session_id: '5c1f0e2a-7b3d-4e8a-9f61-2d4b8c7a9e10', permission_mode: 'default', transcript_path: transcript, tool_name: 'Read', tool_input: { file_path: 'a.ts' }, ...extra };
}

describe('Claude Code\'s measured spend', () => {
  it('charges each API message of the transcript once, as it grows, priced with cache reads and writes', async () => {
    const env = makeEnv();
    const transcript = path.join(env.root, 'session.jsonl');
    fs.writeFileSync(transcript, `${LINES.slice(0, 9).join('\n')}\n`);
    await env.hook('PreToolUse', claudeInput(transcript));
    const first = env.harness.budget().status.dimensions.cost.used;
    assert.ok(first > 0 && first < EXPECTED_USD, `part of the transcript: ${first}`);
    await env.hook('PreToolUse', claudeInput(transcript));
    assert.equal(env.harness.budget().status.dimensions.cost.used, first, 'nothing new, nothing charged');
    fs.appendFileSync(transcript, `${LINES.slice(9).join('\n')}\n`);
    await env.hook('PreToolUse', claudeInput(transcript));
    await env.hook('PreToolUse', claudeInput(transcript));
    assert.ok(Math.abs(env.harness.budget().status.dimensions.cost.used - EXPECTED_USD) < 1e-12, `${env.harness.budget().status.dimensions.cost.used} vs ${EXPECTED_USD}`);
    const usage = env.harness.events({ types: ['ModelUsage'] }).events;
    assert.equal(usage.length, 5);
    assert.deepEqual(usage.map((e) => [e.measured, e.source, e.agentSession]), Array(5).fill(['reported', 'claude-transcript', '5c1f0e2a-7b3d-4e8a-9f61-2d4b8c7a9e10']));
    assert.deepEqual(usage.map((e) => e.cachedInputTokens), [12400, 0, 2150, 17610, 18500]);
    assert.equal(env.harness.budget().status.costEstimated, false, 'every model had a price');
  });

  it('a second process reading the same new lines charges nothing more (the ledger keeps the ids)', async () => {
    const env = makeEnv();
    const transcript = path.join(env.root, 'session.jsonl');
    fs.writeFileSync(transcript, FIXTURE);
    await env.hook('PreToolUse', claudeInput(transcript));
    fs.rmSync(path.join(env.harness.stateDir, 'claude-transcripts.json'));
    await env.hook('PreToolUse', claudeInput(transcript));
    assert.ok(Math.abs(env.harness.budget().status.dimensions.cost.used - EXPECTED_USD) < 1e-12);
  });

  it('the output of a tool is counted as context tokens, its cost left to the measured request that carries it', async () => {
    const env = makeEnv();
    const transcript = path.join(env.root, 'empty.jsonl');
    fs.writeFileSync(transcript, '');
    await env.hook('PostToolUse', claudeInput(transcript, { hook_event_name: 'PostToolUse', tool_response: 'x'.repeat(4000) }));
    const budget = env.harness.budget().status.dimensions;
    assert.ok(budget.tokens.used > 0);
    assert.equal(budget.cost.used, 0);
  });

  it('with the budget exhausted, the next prompt is stopped with the budget line and how to go on', async () => {
    const env = makeEnv({ env: { ALFRED_ROLE: 'tiny' }, files: { '.alfred/roles/tiny.toml': roleFile('tiny', '', 'max_context_tokens = 1000000\nmax_shell_invocations = 10\nmax_cost_usd = 0.01') } });
    const transcript = path.join(env.root, 'session.jsonl');
    fs.writeFileSync(transcript, FIXTURE);
    const answer = await env.hook('UserPromptSubmit', claudeInput(transcript, { hook_event_name: 'UserPromptSubmit', prompt: 'go on' }));
    assert.equal(env.harness.budget().status.signal, 'EXHAUSTED');
    assert.equal(answer.json.continue, false);
    assert.equal(answer.json.decision, 'block');
    assert.match(String(answer.json.stopReason), /^Alfred paused this agent: the budget of role tiny is exhausted\. Budget\[tiny\]: .* → EXHAUSTED\nTo go on: reset the budget/);
    const refused = await env.hook('PreToolUse', claudeInput(transcript));
    assert.match(JSON.stringify(refused.json), /"permissionDecision":"deny"/);
  });

  it('at Stop, the answer that ends the turn is charged when Claude Code writes it after the hook started', async () => {
    const env = makeEnv();
    const transcript = path.join(env.root, 'session.jsonl');
    const line = (o: object) => `${JSON.stringify(o)}\n`;
    const answer = (id: string, stop: string) => line({ type: 'assistant', isSidechain: false, sessionId: 's1', message: { id, model: 'claude-sonnet-4-5', role: 'assistant', content: [], stop_reason: stop, usage: { input_tokens: 100, output_tokens: 10 } } });
    const user = line({ type: 'user', isSidechain: false, message: { role: 'user', content: 'go' } });
    // As Claude Code 2.1.328 leaves it when its Stop hook starts: the last answer not written yet.
    fs.writeFileSync(transcript, user + answer('msg_1', 'tool_use') + user);
    setTimeout(() => fs.appendFileSync(transcript, answer('msg_2', 'end_turn')), 100);
    await env.hook('Stop', claudeInput(transcript, { hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Done.' }));
    assert.deepEqual(env.harness.events({ types: ['ModelUsage'] }).events.map((e) => e.requestId), ['claude:msg_1', 'claude:msg_2']);
  });
});
