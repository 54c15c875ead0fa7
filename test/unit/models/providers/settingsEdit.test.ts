import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'jsonc-parser';
import { withProviderAdded } from '../../../../src/core/models/providers/settingsEdit';
import type { ProviderConfig } from '../../../../src/core/models/providers/types';

const ollama: ProviderConfig = { name: 'ollama', protocol: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', key: { kind: 'none' }, models: 'list' };

test('a provider is added to alfred.providers, after the ones there, comments kept; only references are written', () => {
  const text = '{\n    // mine\n    "alfred.providers": [\n        { "name": "router", "protocol": "openai", "baseUrl": "https://openrouter.ai/api/v1", "key": "$OPENROUTER_KEY" }\n    ]\n}\n';
  const out = withProviderAdded(text, ollama);
  assert.match(out, /\/\/ mine/);
  assert.deepEqual((parse(out) as Record<string, Array<{ name: string }>>)['alfred.providers']!.map((p) => p.name), ['router', 'ollama']);
  assert.deepEqual(parse(withProviderAdded(undefined, { ...ollama, key: { kind: 'secret', name: 'OLLAMA' } })), {
    'alfred.providers': [{ name: 'ollama', protocol: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', key: 'secret:OLLAMA', models: 'list' }],
  });
});
