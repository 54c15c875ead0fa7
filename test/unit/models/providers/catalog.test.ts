import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isAlfredModel, offeredId, offeredModels, parseOfferedId } from '../../../../src/core/models/providers/catalog';
import { intentionsOf } from '../../../../src/core/models/providers/intentions';
import type { ProviderConfig } from '../../../../src/core/models/providers/types';

const local: ProviderConfig = { name: 'ollama', protocol: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', key: { kind: 'none' }, models: 'list' };
const cloud: ProviderConfig = { name: 'router', protocol: 'openai', baseUrl: 'https://openrouter.ai/api/v1', key: { kind: 'env', variable: 'OPENROUTER_KEY' }, models: [{ id: 'anthropic/claude-sonnet-4', price: { inputPerMTok: 3, outputPerMTok: 15 } }] };
const broken: ProviderConfig = { ...local, name: 'down', baseUrl: 'http://127.0.0.1:9/v1' };

test('ids say whose model it is; a model id with its own slashes survives the round trip', () => {
  assert.equal(offeredId('router', 'anthropic/claude-sonnet-4'), 'alfred/router/anthropic/claude-sonnet-4');
  assert.deepEqual(parseOfferedId('alfred/router/anthropic/claude-sonnet-4'), { provider: 'router', model: 'anthropic/claude-sonnet-4' });
  assert.equal(parseOfferedId('gpt-4o'), undefined);
  assert.equal(parseOfferedId('alfred/nomodel'), undefined);
  assert.equal(isAlfredModel('alfred/x/y'), true);
  assert.equal(isAlfredModel('scripted-a'), false);
});

test('configured models as given, listed ones from the endpoint, with intentions; a provider that cannot list is a problem and the rest are offered', async () => {
  const { models, problems } = await offeredModels([local, cloud, broken], {
    list: async (p) => {
      if (p.name === 'down') throw new Error('connection refused');
      return [{ id: 'llama3.2', contextLength: 8192 }];
    },
    intentions: (p, m) => intentionsOf(p, m),
  }, new AbortController().signal);
  assert.deepEqual(models.map((m) => [m.id, m.intentions, m.price ?? null, m.model.maxInputTokens ?? null]), [
    ['alfred/ollama/llama3.2', ['local'], null, 8192],
    ['alfred/router/anthropic/claude-sonnet-4', ['vision'], { inputPerMTok: 3, outputPerMTok: 15 }, null],
  ]);
  assert.deepEqual(problems, [{ provider: 'down', message: 'connection refused' }]);
});
