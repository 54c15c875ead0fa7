/** Sub-agents: their events recorded with the session that started them, their usage charged to it, and a limit on how many run at once. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { makeEnv, roleFile } from './helpers';

const FIXTURES = path.resolve(__dirname, '../../fixtures/usage');
const SESSION = '5c1f0e2a-7b3d-4e8a-9f61-2d4b8c7a9e10';

describe('sub-agents', () => {
  it('a role\'s max_subagents refuses a task tool past the limit until one finishes (its PostToolUse)', async () => {
    const two = roleFile('two', '', 'max_context_tokens = 1000000\nmax_shell_invocations = 100\nmax_cost_usd = 5.0\nmax_subagents = 2');
    const env = makeEnv({ env: { ALFRED_ROLE: 'two' }, files: { '.alfred/roles/two.toml': two } });
    const start = (n: number) => env.hook('PreToolUse', { tool_name: 'runSubagent', tool_input: { prompt: `task ${n}` } });
    assert.doesNotMatch((await start(1)).stdout, /deny/);
    assert.doesNotMatch((await start(2)).stdout, /deny/);
    const third = await start(3);
    assert.match(String((third.json.hookSpecificOutput as Record<string, unknown>).permissionDecisionReason),
      /^Alfred \(role two\): runSubagent may not start another sub-agent: 2 already run and role two allows 2 at once \(max_subagents\)\./);
    assert.doesNotMatch((await env.hook('PreToolUse', { tool_name: 'read_agent', tool_input: { id: 'x' } })).stdout, /deny/, 'talking to a running sub-agent starts none');
    await env.hook('PostToolUse', { tool_name: 'runSubagent', tool_input: { prompt: 'task 1' }, tool_response: 'done' });
    assert.doesNotMatch((await start(4)).stdout, /deny/, 'one finished: room for one more');
  });

  it('SubagentStart, SubagentStop and PreCompact are recorded with the agent session and never block', async () => {
    const env = makeEnv();
    for (const event of ['SubagentStart', 'SubagentStop', 'PreCompact']) {
      const answer = await env.hook(event, { hook_event_name: event, session_id: 's1', agent_id: 'a1', agent_type: 'Explore', trigger: 'auto' });
      assert.deepEqual([answer.exitCode, answer.stdout], [0, '{}'], event);
    }
    const events = env.harness.events({ types: ['SubagentStarted', 'SubagentStopped', 'Compacted'] }).events;
    assert.deepEqual(events.map((e) => [e.type, e.agentSession, e.agentId ?? null]), [['SubagentStarted', 's1', 'a1'], ['SubagentStopped', 's1', 'a1'], ['Compacted', 's1', 'a1']]);
  });

  it('Claude Code\'s sub-agent transcripts (<session>/subagents/*.jsonl) are charged to the session that started them', async () => {
    const env = makeEnv();
    const transcript = path.join(env.root, `${SESSION}.jsonl`);
    fs.writeFileSync(transcript, '');
    fs.mkdirSync(path.join(env.root, SESSION, 'subagents'), { recursive: true });
    fs.copyFileSync(path.join(FIXTURES, 'claude-transcript-subagent.jsonl'), path.join(env.root, SESSION, 'subagents', 'agent-a7c31e9.jsonl'));
    await env.hook('SubagentStop', { hook_event_name: 'SubagentStop', session_id: SESSION, permission_mode: 'default', transcript_path: transcript, agent_id: 'a7c31e9' });
    // Haiku 1 / 5 per million, cache read 0.1, write 1.25: (9 + 3050 × 1.25 + 61 × 5) + (3 + 3050 × 0.1 + 180 × 1.25 + 212 × 5).
    const expected = (9 + 3050 * 1.25 + 61 * 5 + 3 + 3050 * 0.1 + 180 * 1.25 + 212 * 5) / 1e6;
    assert.ok(Math.abs(env.harness.budget().status.dimensions.cost.used - expected) < 1e-12, String(env.harness.budget().status.dimensions.cost.used));
    const usage = env.harness.events({ types: ['ModelUsage'] }).events;
    assert.deepEqual(usage.map((e) => e.agentSession), [SESSION, SESSION]);
  });
});
