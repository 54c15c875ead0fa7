/**
 * `alfred compare --history` on completion records written as `/done` and the Stop hook write them:
 * fingerprints that differ only in the session's persona, or only in its model, are compared; two
 * that differ in both are refused, both named.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { chatSessionConfiguration, turnConfiguration, type RecordedModel } from '../../../src/core/agent/sessionConfiguration';
import { openHarness } from '../../../src/cli/context';
import { verifyCompletion } from '../../../src/core/workflow/completion/verify';
import { agentSessionConfiguration } from '../../../src/core/usage/agentSession';
import { modelEndpoint } from '../../../src/core/models/fingerprint/endpoint';
import type { Harness } from '../../../src/core/harness/harness';
import { isolateEnv, newWorkspace, run } from '../cli/helpers';

const posixOnly = { skip: process.platform === 'win32' && 'uses a POSIX shell' };
const env = isolateEnv();
const endpointOf = (m: RecordedModel): string => modelEndpoint(m.id, m.vendor, []);

/** One `/done` of a chat session whose one turn ran on `model`, with or without a persona. */
async function done(harness: Harness, model: string, persona: boolean, pass: boolean): Promise<string> {
  const flag = path.join(harness.workspaceFolder, 'done.flag');
  if (pass) fs.writeFileSync(flag, '');
  else fs.rmSync(flag, { force: true });
  const configuration = chatSessionConfiguration([{ model: { id: model, vendor: 'copilot' }, configuration: turnConfiguration([], persona) }], endpointOf);
  const outcome = await verifyCompletion(harness, { trigger: 'chat', configuration });
  assert.equal(outcome.kind === 'recorded' && outcome.accepted, pass);
  return outcome.kind === 'recorded' ? outcome.record.fingerprint!.id : '';
}

describe('alfred compare --history on recorded sessions', posixOnly, () => {
  it('compares fingerprints differing in persona alone or in model alone, and refuses one differing in both', async () => {
    const ws = newWorkspace(env.root, { '.alfred/checks.toml': '[[check]]\nname = "flag"\nrun = "test -f done.flag"\n' });
    const harness = await openHarness(ws);
    const plain = await done(harness, 'gpt-4o', false, true);
    assert.equal(await done(harness, 'gpt-4o', false, false), plain);
    const persona = await done(harness, 'gpt-4o', true, true);
    assert.equal(await done(harness, 'gpt-4o', true, true), persona);
    const other = await done(harness, 'claude-sonnet-4', true, true);

    const byPersona = await run(['compare', plain, persona, '--history', '--workspace', ws]);
    assert.equal(byPersona.code, 0, byPersona.stderr);
    assert.ok(byPersona.stdout.startsWith(`Comparison of recorded history: control "${plain}" (2) vs treatment "${persona}" (2)\nComponent changed: persona (off → on)`), byPersona.stdout);
    assert.ok(byPersona.stdout.includes('Acceptance rate\n  control    50.0% (1 of 2), 95% interval 9.5% to 90.5%\n  treatment  100.0% (2 of 2), 95% interval 34.2% to 100.0%'), byPersona.stdout);

    const byModel = await run(['compare', persona, other, '--history', '--workspace', ws]);
    assert.equal(byModel.code, 0, byModel.stderr);
    assert.ok(byModel.stdout.startsWith(`Comparison of recorded history: control "${persona}" (2) vs treatment "${other}" (1)\nComponent changed: model (gpt-4o → claude-sonnet-4)`), byModel.stdout);

    const both = await run(['compare', plain, other, '--history', '--workspace', ws]);
    assert.equal(both.code, 2);
    assert.equal(both.stdout, '');
    assert.equal(both.stderr, 'alfred compare: refused: the two differ in 2 components, not one: model (gpt-4o → claude-sonnet-4), persona (off → on)');
  });

  it("tells a Stop hook's sessions apart by their measured model", async () => {
    const ws = newWorkspace(env.root, { '.alfred/checks.toml': '[[check]]\nname = "ok"\nrun = "exit 0"\n' });
    const harness = await openHarness(ws);
    const usage = (session: string, model: string) => JSON.stringify({ ts: '2026-01-01T00:00:00.000Z', model, inputTokens: 1, outputTokens: 1, costUsd: 0, estimated: false, measured: 'reported', source: 'claude-transcript', agentSession: session });
    fs.mkdirSync(harness.stateDir, { recursive: true });
    fs.writeFileSync(path.join(harness.stateDir, 'usage.jsonl'), `${usage('a', 'claude-sonnet-4-5')}\n${usage('b', 'claude-opus-4-1')}\n`);
    const ids: string[] = [];
    for (const session of ['a', 'b']) {
      const outcome = await verifyCompletion(harness, { trigger: 'hook:Stop', agentSession: session, configuration: () => agentSessionConfiguration(harness.stateDir, session) });
      ids.push(outcome.kind === 'recorded' ? outcome.record.fingerprint!.id : '');
    }
    const r = await run(['compare', ids[0]!, ids[1]!, '--history', '--workspace', ws]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes('Component changed: model (claude-sonnet-4-5 → claude-opus-4-1)'), r.stdout);
  });
});
