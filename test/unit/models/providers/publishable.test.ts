/** `alfred.providers` as published for the hooks and the CLI (providers.json): its shape kept, no literal key in it. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseProviders } from '../../../../src/core/models/providers/config';
import { publishableProviders } from '../../../../src/core/models/providers/publishable';

const LITERAL = 'sk-live-4f9a2b7c1d3e5f60718293a4b5c6d7e8';
const PASSWORD = 'hunter2-0123456789';

const SETTING = [
  { name: 'env', protocol: 'openai', baseUrl: 'https://api.openai.com/v1', key: '$OPENAI_API_KEY', models: ['gpt-4o', { id: 'o3', price: { inputPerMTok: 2, outputPerMTok: 8 } }], timeoutMs: 30_000 },
  { name: 'braced', protocol: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', key: '${ANTHROPIC_API_KEY}', models: 'list' },
  { name: 'vault', protocol: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', key: 'secret:local' },
  { name: 'nokey', protocol: 'openai', baseUrl: 'http://127.0.0.1:11434/v1' },
  { name: 'typed', protocol: 'openai', baseUrl: 'https://api.openai.com/v1', key: LITERAL, models: ['gpt-4o'] },
  { name: 'cmd', protocol: 'openai', baseUrl: 'https://api.openai.com/v1', key: `!echo ${LITERAL}` },
  { name: 'elsewhere', protocol: 'openai', baseUrl: 'https://api.openai.com/v1', key: '$K', apiKey: LITERAL, models: [{ id: 'm', token: LITERAL, price: { inputPerMTok: 1, outputPerMTok: 1, secret: LITERAL } }] },
  { name: 'userinfo', protocol: 'openai', baseUrl: `https://bob:${PASSWORD}@api.example.com/v1`, key: '$K' },
  { name: 'unparsed', protocol: 'openai', baseUrl: `https://bob:${PASSWORD}@`, key: '$K' },
  LITERAL,
];

test('a literal key, wherever it was typed, is never published', () => {
  const text = JSON.stringify(publishableProviders(SETTING));
  assert.equal(text.includes('sk-live'), false, text);
  assert.equal(text.includes(PASSWORD), false, text);
  assert.equal(JSON.stringify(publishableProviders(LITERAL)), '"***"', 'a setting that is no list at all');
});

test('references, URLs and every other field are published as written', () => {
  const published = publishableProviders(SETTING) as Record<string, unknown>[];
  assert.deepEqual(published.slice(0, 4), SETTING.slice(0, 4));
  assert.deepEqual(published[4], { ...(SETTING[4] as object), key: '***' });
  assert.deepEqual(published[5], { ...(SETTING[5] as object), key: '***' });
  assert.deepEqual(published[6], {
    name: 'elsewhere', protocol: 'openai', baseUrl: 'https://api.openai.com/v1', key: '$K', apiKey: '***',
    models: [{ id: 'm', token: '***', price: { inputPerMTok: 1, outputPerMTok: 1, secret: '***' } }],
  });
  assert.equal(published[7]!.baseUrl, 'https://***@api.example.com/v1');
  assert.equal(published[8]!.baseUrl, '***');
  assert.equal(published[9], '***');
  assert.deepEqual(publishableProviders(undefined), []);
});

test('the CLI reads the same providers and finds a problem at the same places as the editor', () => {
  const editor = parseProviders(SETTING);
  const cli = parseProviders(publishableProviders(SETTING));
  assert.deepEqual(cli.providers, editor.providers);
  assert.deepEqual(cli.problems.map((p) => p.key), editor.problems.map((p) => p.key));
  assert.deepEqual(cli.providers.map((p) => p.name), ['env', 'braced', 'vault', 'nokey', 'elsewhere']);
});

test('a __proto__ field stays a field of its own', () => {
  const setting = JSON.parse(`[{"name":"p","protocol":"openai","baseUrl":"https://h/v1","__proto__":{"key":"${LITERAL}"}}]`) as unknown[];
  const published = publishableProviders(setting) as Record<string, unknown>[];
  assert.equal(Object.getPrototypeOf(published[0]), Object.prototype);
  assert.equal(JSON.stringify(published).includes('sk-live'), false);
  assert.deepEqual(parseProviders(published).problems.map((p) => p.key), parseProviders(setting).problems.map((p) => p.key));
});
