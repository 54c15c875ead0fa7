/** `alfred usage`: what the governed agents' model requests cost and the tool calls they made, per agent session and per model. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { appendUsage } from '../../../src/core/models/usageLog';
import { stateDir } from '../../../src/core/base/state/paths';
import { isolateEnv, newWorkspace, run } from './helpers';

const env = isolateEnv();
const FIXTURE = path.resolve(__dirname, '../../fixtures/usage/claude-transcript.jsonl');
const CLAUDE_SESSION = '5c1f0e2a-7b3d-4e8a-9f61-2d4b8c7a9e10';

describe('alfred usage', () => {
  it('after a Claude Code hook: one session, its models, tokens, measured cost and tool calls; --since leaves older requests out', async () => {
    const folder = newWorkspace(env.root);
    const transcript = path.join(env.root, 'session.jsonl');
    fs.copyFileSync(FIXTURE, transcript);
    const input = { hook_event_name: 'PreToolUse', session_id: CLAUDE_SESSION, permission_mode: 'default', transcript_path: transcript, cwd: folder, tool_name: 'Read', tool_input: { file_path: 'a' } };
    assert.equal((await run(['hook', 'PreToolUse'], JSON.stringify(input))).code, 0);
    const r = await run(['usage', '--json', '--workspace', folder]);
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout) as { total: Record<string, number>; sessions: Array<Record<string, unknown>>; models: Array<Record<string, unknown>> };
    assert.deepEqual([summary.total.calls, summary.total.priced, summary.total.inputTokens, summary.total.outputTokens, summary.total.cachedInputTokens],
      [5, 5, 17613 + 2154 + 2566 + 18501 + 19822, 231 + 97 + 140 + 4 + 388, 12400 + 0 + 2150 + 17610 + 18500]);
    assert.equal(summary.total.estimatedUsd, 0);
    assert.ok(Math.abs(summary.total.measuredUsd - 0.056351) < 1e-9, String(summary.total.measuredUsd));
    assert.deepEqual(summary.sessions.map((s) => [s.session, s.source, s.calls, s.models, s.toolCalls, s.refused, s.shellCalls]),
      [[CLAUDE_SESSION, 'claude-transcript', 5, ['claude-sonnet-4-5-20250929', 'claude-haiku-4-5-20251001'], 1, 0, 0]]);
    assert.deepEqual(summary.models.map((m) => [m.model, m.calls]), [['claude-sonnet-4-5-20250929', 3], ['claude-haiku-4-5-20251001', 2]]);
    const text = await run(['usage', '--workspace', folder]);
    assert.deepEqual(text.out, [
      'All: 5 model calls · 60656 in (50660 cached), 860 out · $0.0564 measured · 1 tool call, 0 shell calls',
      `  session ${CLAUDE_SESSION} (claude-transcript) [claude-sonnet-4-5-20250929, claude-haiku-4-5-20251001]: 5 model calls · 60656 in (50660 cached), 860 out · $0.0564 measured · 1 tool call, 0 shell calls`,
      '  model claude-sonnet-4-5-20250929: 3 model calls · 55936 in (48510 cached), 623 out · $0.0517 measured',
      '  model claude-haiku-4-5-20251001: 2 model calls · 4720 in (2150 cached), 237 out · $0.0046 measured',
    ]);
    const later = JSON.parse((await run(['usage', '--json', '--since', '2026-03-02T10:00:15Z', '--workspace', folder])).stdout) as { total: { calls: number } };
    assert.equal(later.total.calls, 2, 'the requests that ended after 10:00:15');
    assert.match((await run(['usage', '--since', 'yesterday', '--workspace', folder])).stderr, /--since needs a date/);
  });

  it('a Copilot session: its hook\'s tool and shell calls (a refusal counted), a model with no price priced with the fallback price, and saying so', async () => {
    const folder = newWorkspace(env.root);
    const hook = (tool: string, toolInput: object) => run(['hook', 'PreToolUse'], JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'copilot-7', cwd: folder, tool_name: tool, tool_input: toolInput }));
    assert.equal((await hook('run_in_terminal', { command: 'npm test', explanation: 'tests', isBackground: false })).code, 0);
    assert.match((await hook('create_file', { filePath: path.join(folder, '.alfred', 'roles', 'x.toml'), content: '' })).stdout, /"permissionDecision":"deny"/);
    await run(['hook', 'PreToolUse'], JSON.stringify({ hook_event_name: 'PreToolUse', cwd: folder, tool_name: 'read_file', tool_input: { filePath: 'a' } }));
    // The way Alfred records a request whose model has no price: the fallback charged, `estimated`.
    appendUsage(stateDir(folder), {
      ts: new Date().toISOString(), model: 'acme-secret-1', inputTokens: 500, outputTokens: 40, costUsd: 0.0123, estimated: true,
      measured: 'reported', source: 'copilot-otel', agentSession: 'copilot-7',
    });
    const summary = JSON.parse((await run(['usage', '--json', '--workspace', folder])).stdout) as { sessions: Array<Record<string, unknown>> };
    assert.deepEqual(summary.sessions.map(({ lastSeen: _, ...s }) => s), [
      { session: 'copilot-7', source: 'copilot-otel', models: ['acme-secret-1'], calls: 1, inputTokens: 500, outputTokens: 40, cachedInputTokens: 0,
        measuredUsd: 0, estimatedUsd: 0, priced: 0, fallbackUsd: 0.0123, toolCalls: 2, refused: 1, shellCalls: 1 },
      { session: '(hook:PreToolUse)', source: 'hook:PreToolUse', models: [], calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0,
        measuredUsd: 0, estimatedUsd: 0, priced: 0, fallbackUsd: 0, toolCalls: 1, refused: 0, shellCalls: 0 },
    ]);
    assert.deepEqual((await run(['usage', '--workspace', folder])).out, [
      'All: 1 model call · 500 in (0 cached), 40 out · ~$0.0123 (fallback price) · 3 tool calls (1 refused), 1 shell call',
      '  session copilot-7 (copilot-otel) [acme-secret-1]: 1 model call · 500 in (0 cached), 40 out · ~$0.0123 (fallback price) · 2 tool calls (1 refused), 1 shell call',
      '  session (hook:PreToolUse) (hook:PreToolUse): no model calls reported · 1 tool call, 0 shell calls',
      '  model acme-secret-1: 1 model call · 500 in (0 cached), 40 out · ~$0.0123 (fallback price)',
    ]);
  });
});
