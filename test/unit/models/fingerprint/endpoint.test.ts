/** The fingerprint's endpoint is where the requests went (the provider's URL), never a key that URL carried. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { chargeAgentRequest } from '../../../../src/core/agent/charge';
import { providerModel } from '../../../../src/core/agent/model';
import { endpointOfUrl, isEndpoint, modelEndpoint } from '../../../../src/core/models/fingerprint/endpoint';
import { harnessFingerprint, type RolePolicy } from '../../../../src/core/models/fingerprint/fingerprint';
import type { ProviderConfig } from '../../../../src/core/models/providers/types';
import { makeEnv } from '../../harness/helpers';

const provider = (name: string, baseUrl: string): ProviderConfig => ({ name, protocol: 'openai', baseUrl, key: { kind: 'none' }, models: [{ id: 'm' }] });

const role: RolePolicy = {
  name: 'coder', shellPolicy: 'track', sandbox: 'auto', failClosed: false, tools: { denied: [] },
  limits: { maxContextTokens: 1000, maxShellInvocations: 5, maxCostUsd: 2, warnAtPercent: 80, blockAtPercent: 100 },
};
const fingerprintOf = (endpoint: string) => harnessFingerprint({ alfred: '1.0.0', role, model: 'm', endpoint, checks: null, promptFiles: [], labels: {} });

/** Every file under `dir`, as text. */
function allText(dir: string): string {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile()).map((e) => fs.readFileSync(path.join(e.parentPath, e.name), 'utf8')).join('\n');
}

describe('endpointOfUrl', () => {
  it('keeps scheme, host, port and path, normalised, without trailing slashes', () => {
    assert.equal(endpointOfUrl('https://api.openai.com/v1'), 'https://api.openai.com/v1');
    assert.equal(endpointOfUrl('https://API.OpenAI.com:443/v1/'), 'https://api.openai.com/v1');
    assert.equal(endpointOfUrl('http://127.0.0.1:11434/v1'), 'http://127.0.0.1:11434/v1');
    assert.equal(endpointOfUrl('https://api.anthropic.com'), 'https://api.anthropic.com');
  });

  it('drops userinfo, query and fragment, where keys are put', () => {
    assert.equal(endpointOfUrl('https://me:sk-SECRET@proxy.example/v1/?api-key=sk-SECRET2&x=1#sk-SECRET3'), 'https://proxy.example/v1');
  });

  it('is undefined for what is no URL', () => {
    assert.equal(endpointOfUrl('local'), undefined);
  });
});

describe("the fingerprint's endpoint", () => {
  it('two providers of one name at different URLs give different endpoints, hence different fingerprints', () => {
    const a = providerModel(provider('local', 'http://127.0.0.1:11434/v1'), 'm', undefined);
    const b = providerModel(provider('local', 'http://10.0.0.7:8000/v1'), 'm', undefined);
    assert.equal(a.endpoint, 'http://127.0.0.1:11434/v1');
    assert.equal(b.endpoint, 'http://10.0.0.7:8000/v1');
    assert.equal(a.vendor, b.vendor);
    const [fa, fb] = [fingerprintOf(a.endpoint), fingerprintOf(b.endpoint)];
    assert.equal(fa.components.endpoint, 'http://127.0.0.1:11434/v1');
    assert.equal(fb.components.endpoint, 'http://10.0.0.7:8000/v1');
    assert.notEqual(fa.id, fb.id);
  });

  it('one provider renamed at the same URL is the same endpoint', () => {
    assert.equal(providerModel(provider('a', 'https://h.example/v1'), 'm', undefined).endpoint, providerModel(provider('b', 'https://h.example/v1/'), 'm', undefined).endpoint);
  });

  it('a key in the URL\'s query or userinfo is never in a recorded fingerprint, usage record or trace', async () => {
    for (const baseUrl of ['https://proxy.example/v1?api-key=sk-live-123', 'https://user:sk-live-123@proxy.example/v1']) {
      const env = makeEnv();
      const model = providerModel(provider('proxy', baseUrl), 'm', undefined);
      assert.equal(model.endpoint, 'https://proxy.example/v1');
      const result = await chargeAgentRequest(env.harness, model, { inputTokens: 10, outputTokens: 2, toolResultTokens: 0, latencyMs: 1 }, 'trial', {});
      assert.equal(result.record.fingerprint?.components.endpoint, 'https://proxy.example/v1');
      const written = allText(env.harness.stateDir);
      assert.match(written, /https:\/\/proxy\.example\/v1/);
      assert.doesNotMatch(written, /sk-live-123/);
    }
  });
});

describe('modelEndpoint (a model VS Code offers)', () => {
  const providers = [provider('local', 'http://127.0.0.1:11434/v1/')];
  it("one of Alfred's own is its provider's URL; another keeps its vendor's name", () => {
    assert.equal(modelEndpoint('alfred/local/llama3.1:8b', 'alfred', providers), 'http://127.0.0.1:11434/v1');
    assert.equal(modelEndpoint('gpt-4o', 'copilot', providers), 'copilot');
    assert.equal(modelEndpoint('alfred/gone/x', 'alfred', providers), 'alfred');
  });
});

describe("a condition's endpoint", () => {
  it('names a provider by its name or by its URL as the fingerprint spells it', () => {
    const p = provider('local', 'http://127.0.0.1:11434/v1');
    assert.equal(isEndpoint(p, 'local'), true);
    assert.equal(isEndpoint(p, 'http://127.0.0.1:11434/v1/'), true);
    assert.equal(isEndpoint(p, 'http://127.0.0.1:8080/v1'), false);
    assert.equal(isEndpoint(p, 'remote'), false);
  });
});
