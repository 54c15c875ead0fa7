/** `alfred usage`: what the governed agents' model requests cost, per agent session and per model. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { isolateEnv, newWorkspace, run } from './helpers';

const env = isolateEnv();
const FIXTURE = path.resolve(__dirname, '../../fixtures/usage/claude-transcript.jsonl');

describe('alfred usage', () => {
  it('after a Claude Code hook: one session, its models, tokens and measured cost; --since leaves older requests out', async () => {
    const folder = newWorkspace(env.root);
    const transcript = path.join(env.root, 'session.jsonl');
    fs.copyFileSync(FIXTURE, transcript);
    const input = { hook_event_name: 'PreToolUse', session_id: 's', permission_mode: 'default', transcript_path: transcript, cwd: folder, tool_name: 'Read', tool_input: { file_path: 'a' } };
    assert.equal((await run(['hook', 'PreToolUse'], JSON.stringify(input))).code, 0);
    const r = await run(['usage', '--json', '--workspace', folder]);
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout) as { total: Record<string, number>; sessions: Array<Record<string, unknown>>; models: Array<Record<string, unknown>> };
    assert.deepEqual([summary.total.calls, summary.total.priced, summary.total.inputTokens, summary.total.outputTokens, summary.total.cachedInputTokens],
      [5, 5, 17613 + 2154 + 2566 + 18501 + 19822, 231 + 97 + 140 + 4 + 388, 12400 + 0 + 2150 + 17610 + 18500]);
    assert.equal(summary.total.estimatedUsd, 0);
    assert.ok(Math.abs(summary.total.measuredUsd - 0.056351) < 1e-9, String(summary.total.measuredUsd));
    assert.deepEqual(summary.sessions.map((s) => [s.session, s.calls, s.models]), [['5c1f0e2a-7b3d-4e8a-9f61-2d4b8c7a9e10', 5, ['claude-sonnet-4-5-20250929', 'claude-haiku-4-5-20251001']]]);
    assert.deepEqual(summary.models.map((m) => [m.model, m.calls]), [['claude-sonnet-4-5-20250929', 3], ['claude-haiku-4-5-20251001', 2]]);
    const text = await run(['usage', '--workspace', folder]);
    assert.match(text.stdout, /^All: 5 model calls · 60656 in \(50660 cached\), 860 out · \$0\.0564 measured$/m);
    const later = JSON.parse((await run(['usage', '--json', '--since', '2026-03-02T10:00:15Z', '--workspace', folder])).stdout) as { total: { calls: number } };
    assert.equal(later.total.calls, 2, 'the requests that ended after 10:00:15');
    assert.match((await run(['usage', '--since', 'yesterday', '--workspace', folder])).stderr, /--since needs a date/);
  });
});
