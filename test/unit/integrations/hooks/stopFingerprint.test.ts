/**
 * The Stop hook's completion record carries the agent session's model as Alfred measured it (Claude
 * Code's transcript, Copilot's OpenTelemetry, Alfred's own provider), `n/a` when none was measured;
 * pack and persona `off` (Alfred gives neither to these agents); the handoff as SessionStart gave it.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { readCompletions } from '../../../../src/core/workflow/completion/record';
import { writeHandoff } from '../../../../src/core/workflow/handoff/handoff';
import { latestMeasuredModel } from '../../../../src/core/usage/sessionModel';
import { makeEnv } from '../../harness/helpers';

const posixOnly = { skip: process.platform === 'win32' && 'uses a POSIX shell' };
const CHECKS = '[[check]]\nname = "ok"\nrun = "exit 0"\n';
const TRANSCRIPT = fs.readFileSync(path.resolve(__dirname, '../../../fixtures/usage/claude-transcript.jsonl'), 'utf8');
const SESSION = '5c1f0e2a-7b3d-4e8a-9f61-2d4b8c7a9e10';

const claude = (event: string, transcript: string, extra: Record<string, unknown> = {}) => ({
  hook_event_name: event, session_id: SESSION, permission_mode: 'default', transcript_path: transcript, ...extra,
});
const pick = (c: Record<string, string>) => ({ model: c.model, endpoint: c.endpoint, pack: c.pack, persona: c.persona, handoff: c.handoff });

describe("the Stop hook's completion record", posixOnly, () => {
  it("carries the model a Claude Code session's transcript names, and the handoff SessionStart gave it", async () => {
    const env = makeEnv({ files: { '.alfred/checks.toml': CHECKS } });
    const transcript = path.join(env.root, 'session.jsonl');
    fs.writeFileSync(transcript, TRANSCRIPT);
    await env.hook('SessionStart', claude('SessionStart', transcript, { source: 'startup' }));
    await env.hook('Stop', claude('Stop', transcript, { stop_hook_active: false }));
    const [record] = readCompletions(env.harness.stateDir).records;
    assert.equal(record!.trigger, 'hook:Stop');
    assert.equal(record!.agentSession, SESSION);
    // The fixture's sub-agent ran on Haiku; the session's latest request, its answer, on Sonnet.
    assert.deepEqual(pick(record!.fingerprint!.components), { model: 'claude-sonnet-4-5-20250929', endpoint: 'n/a', pack: 'off', persona: 'off', handoff: 'off' });
    assert.equal(record!.fingerprint!.id, env.harness.fingerprint({ model: 'claude-sonnet-4-5-20250929', pack: 'off', persona: false, handoff: false }).id);

    await writeHandoff(env.harness, { nextStep: 'finish the rounding fix', by: 'test' });
    await env.hook('SessionStart', claude('SessionStart', transcript, { source: 'resume' }));
    await env.hook('Stop', claude('Stop', transcript, { stop_hook_active: false }));
    assert.equal(readCompletions(env.harness.stateDir).records[0]!.fingerprint!.components.handoff, 'on');
  });

  it('says n/a for the model of a session whose usage was never measured, and for a handoff no SessionStart reported', async () => {
    const env = makeEnv({ files: { '.alfred/checks.toml': CHECKS } });
    await env.hook('Stop', { hook_event_name: 'Stop', session_id: 'copilot-1', stop_hook_active: false });
    const [record] = readCompletions(env.harness.stateDir).records;
    assert.deepEqual(pick(record!.fingerprint!.components), { model: 'n/a', endpoint: 'n/a', pack: 'off', persona: 'off', handoff: 'n/a' });
  });
});

describe('latestMeasuredModel', () => {
  it("is the model of the session's request that ended last, whatever the order it was charged in", () => {
    const env = makeEnv();
    const line = (ts: string, model: string, agentSession: string, measured = 'reported') => JSON.stringify({ ts, model, inputTokens: 1, outputTokens: 1, costUsd: 0, estimated: false, measured, source: 'copilot-otel', agentSession });
    fs.mkdirSync(env.harness.stateDir, { recursive: true });
    fs.writeFileSync(path.join(env.harness.stateDir, 'usage.jsonl'), [
      line('2026-01-01T10:00:05.000Z', 'gpt-5', 's1'),
      line('2026-01-01T10:00:02.000Z', 'gpt-5-mini', 's1'), // a sub-agent's, charged after
      line('2026-01-01T10:00:09.000Z', 'claude-x', 's2'),
      line('2026-01-01T10:00:09.000Z', 'counted-model', 's1', 'counted'),
      'not json',
    ].join('\n') + '\n');
    assert.equal(latestMeasuredModel(env.harness.stateDir, 's1'), 'gpt-5');
    assert.equal(latestMeasuredModel(env.harness.stateDir, 's2'), 'claude-x');
    assert.equal(latestMeasuredModel(env.harness.stateDir, 's3'), undefined);
  });
});
