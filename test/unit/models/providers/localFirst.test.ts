import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseProviders } from '../../../../src/core/models/providers/config';
import { LOCAL_ENDPOINTS, localOffers, PROBE_PATH } from '../../../../src/core/models/providers/localFirst';

const OLLAMA = 'http://127.0.0.1:11434/v1';
const LMSTUDIO = 'http://127.0.0.1:1234/v1';

test('the default endpoints: Ollama and LM Studio, OpenAI-compatible under /v1, probed at /models', () => {
  assert.deepEqual(LOCAL_ENDPOINTS, [
    { name: 'ollama', label: 'Ollama', baseUrl: OLLAMA, protocol: 'openai' },
    { name: 'lmstudio', label: 'LM Studio', baseUrl: LMSTUDIO, protocol: 'openai' },
  ]);
  assert.equal(PROBE_PATH, '/models');
});

test('an endpoint that answered is offered with its models and a provider entry that parses cleanly', () => {
  const offers = localOffers([{ baseUrl: OLLAMA, ok: true, models: ['llama3.1:8b', 'qwen2.5vl:7b', 'llama3.1:8b'] }, { baseUrl: LMSTUDIO, ok: false }]);
  assert.deepEqual(offers, [{
    endpoint: LOCAL_ENDPOINTS[0],
    models: ['llama3.1:8b', 'qwen2.5vl:7b'],
    suggested: { name: 'ollama', protocol: 'openai', baseUrl: OLLAMA, key: { kind: 'none' }, models: 'list' },
  }]);
  const written = [{ name: 'ollama', protocol: 'openai', baseUrl: OLLAMA, models: 'list' }];
  assert.deepEqual(parseProviders(written), { providers: [offers[0]!.suggested], problems: [] });
});

test('nothing answered: nothing offered; an endpoint with no model yet is still offered', () => {
  assert.deepEqual(localOffers([]), []);
  assert.deepEqual(localOffers([{ baseUrl: OLLAMA, ok: false }, { baseUrl: LMSTUDIO, ok: false }]), []);
  assert.deepEqual(localOffers([{ baseUrl: `${LMSTUDIO}/`, ok: true }]).map((o) => [o.suggested.name, o.models]), [['lmstudio', []]]);
});

test('an endpoint already configured (localhost or 127.0.0.1, with or without a slash) is not offered again', () => {
  const results = [{ baseUrl: OLLAMA, ok: true, models: ['m'] }, { baseUrl: LMSTUDIO, ok: true, models: ['n'] }];
  const offers = localOffers(results, [{ name: 'mine', baseUrl: 'http://localhost:11434/v1/' }]);
  assert.deepEqual(offers.map((o) => o.endpoint.name), ['lmstudio']);
  assert.deepEqual(localOffers(results, [{ name: 'x', baseUrl: 'http://[::1]:1234/v1' }]).map((o) => o.endpoint.name), ['ollama']);
});

test('the suggested name avoids names already taken, without regard to case', () => {
  const results = [{ baseUrl: OLLAMA, ok: true }, { baseUrl: LMSTUDIO, ok: true }];
  const offers = localOffers(results, [{ name: 'Ollama', baseUrl: 'https://cloud.example/v1' }, { name: 'ollama-2', baseUrl: 'https://other.example/v1' }, { name: 'lmstudio', baseUrl: 'http://192.168.1.5:1234/v1' }]);
  assert.deepEqual(offers.map((o) => o.suggested.name), ['ollama-3', 'lmstudio-2']);
});
