/**
 * `@alfred /done`'s completion record carries the configuration its chat session ran under (model,
 * endpoint, pack, persona, handoff): the same inputs, and so the same fingerprint, as the session's
 * model charges. The editor hands the session's turns to chatSessionConfiguration and the result to
 * verifyCompletion; this drives both with a real harness and with a fake host.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chargeAgentRequest } from '../../../../src/core/agent/charge';
import { chatSessionConfiguration, turnConfiguration, type RecordedModel, type RecordedTurn } from '../../../../src/core/agent/sessionConfiguration';
import { readCompletions } from '../../../../src/core/workflow/completion/record';
import { verifyCompletion, type CompletionHost } from '../../../../src/core/workflow/completion/verify';
import { modelEndpoint } from '../../../../src/core/models/fingerprint/endpoint';
import type { SessionConfiguration } from '../../../../src/core/models/fingerprint/fingerprint';
import { offeredId } from '../../../../src/core/models/providers/catalog';
import type { ProviderConfig } from '../../../../src/core/models/providers/types';
import { readUsage } from '../../../../src/core/models/usageLog';
import { makeEnv } from '../../harness/helpers';

const posixOnly = { skip: process.platform === 'win32' && 'uses a POSIX shell' };
const CHECKS = '[[check]]\nname = "ok"\nrun = "exit 0"\n';
const providers: ProviderConfig[] = [{ name: 'local', protocol: 'openai', baseUrl: 'http://user:secret@127.0.0.1:11434/v1/?key=k', key: { kind: 'none' }, models: [{ id: 'qwen' }] }];
/** What the editor passes: modelEndpoint over the alfred.providers setting. */
const endpointOf = (m: RecordedModel): string => modelEndpoint(m.id, m.vendor, providers);
const LOCAL = { id: offeredId('local', 'qwen'), vendor: 'alfred' };
const COPILOT = { id: 'gpt-4o', vendor: 'copilot' };

/** A session that opened with a persona, then ran a turn with two packs on Alfred's local provider. */
const session: RecordedTurn[] = [
  { model: COPILOT, packs: [], persona: 'socratic', configuration: turnConfiguration([], true) },
  { packs: ['rust'] }, // no model was available: nothing ran
  { model: LOCAL, packs: ['rust', 'sql'], configuration: turnConfiguration(['rust', 'sql'], true) },
];

describe("the configuration of an @alfred chat session, for /done's record", () => {
  it("is its latest turn's model, endpoint, pack, persona and handoff", () => {
    assert.deepEqual(chatSessionConfiguration(session, endpointOf), {
      model: 'alfred/local/qwen', endpoint: 'http://127.0.0.1:11434/v1', pack: 'rust+sql', persona: true, handoff: false,
    });
    assert.deepEqual(chatSessionConfiguration(session.slice(0, 1), endpointOf), { model: 'gpt-4o', endpoint: 'copilot', pack: 'off', persona: true, handoff: false });
  });

  it('leaves every component n/a for a session that reached no model, and the handoff n/a for turns recorded before it was kept', () => {
    assert.deepEqual(chatSessionConfiguration([], endpointOf), {});
    assert.deepEqual(chatSessionConfiguration([{ packs: ['rust'] }], endpointOf), {});
    assert.deepEqual(chatSessionConfiguration([{ model: COPILOT, packs: ['go'], persona: 'terse' }, { model: COPILOT, packs: [] }], endpointOf), {
      model: 'gpt-4o', endpoint: 'copilot', pack: 'off', persona: true,
    });
  });
});

describe('/done writes the session configuration into its completion record', posixOnly, () => {
  it('with exact components, and the fingerprint of the turn\'s own model charges', async () => {
    const env = makeEnv({ version: '9.9.9', files: { '.alfred/checks.toml': CHECKS } });
    const configuration = chatSessionConfiguration(session, endpointOf);
    const outcome = await verifyCompletion(env.harness, { trigger: 'chat', configuration });
    assert.equal(outcome.kind, 'recorded');
    const fp = readCompletions(env.harness.stateDir).records[0]!.fingerprint!;
    const { model, endpoint, pack, persona, handoff, role, alfred } = fp.components;
    assert.deepEqual({ model, endpoint, pack, persona, handoff, role, alfred }, {
      model: 'alfred/local/qwen', endpoint: 'http://127.0.0.1:11434/v1', pack: 'rust+sql', persona: 'on', handoff: 'off', role: 'coder', alfred: '9.9.9',
    });
    // The turn's request, charged as @alfred's loop charges it, carries the same fingerprint.
    await chargeAgentRequest(env.harness, { id: LOCAL.id, vendor: LOCAL.vendor, endpoint: endpointOf(LOCAL) }, { inputTokens: 10, outputTokens: 2, toolResultTokens: 0, latencyMs: 1 }, 'chat', turnConfiguration(['rust', 'sql'], true));
    assert.equal(readUsage(env.harness.stateDir).records[0]!.fingerprint!.id, fp.id);
  });

  it('asks the host for the fingerprint with exactly what the caller knows (a fake host)', async () => {
    const env = makeEnv({ files: { '.alfred/checks.toml': CHECKS } });
    const asked: Array<SessionConfiguration | undefined> = [];
    const host: CompletionHost = {
      workspaceFolder: env.harness.workspaceFolder, stateDir: env.harness.stateDir, homeDir: env.harness.homeDir, env: env.harness.env, version: '1.0.0',
      actor: () => env.harness.actor(), record: (events) => env.harness.record(events),
      fingerprint: (known) => {
        asked.push(known);
        return { id: 'fake', components: { model: known?.model ?? 'n/a' } };
      },
    };
    const configuration = chatSessionConfiguration(session, endpointOf);
    await verifyCompletion(host, { trigger: 'chat', configuration });
    await verifyCompletion(host, { trigger: 'command' });
    assert.deepEqual(asked, [configuration, {}]);
    assert.deepEqual(readCompletions(env.harness.stateDir).records.map((r) => r.fingerprint), [{ id: 'fake', components: { model: 'n/a' } }, { id: 'fake', components: { model: 'alfred/local/qwen' } }]);
  });
});
