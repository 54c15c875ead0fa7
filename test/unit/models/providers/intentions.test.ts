import assert from 'node:assert/strict';
import { test } from 'node:test';
import { priceFor } from '../../../../src/core/rules/budget/prices';
import { intentionsOf, isLocalUrl, matchesLink } from '../../../../src/core/models/providers/intentions';

const cloud = { baseUrl: 'https://api.openai.com/v1' };
const of = (id: string, extra: object = {}, provider: { baseUrl: string; price?: { inputPerMTok: number; outputPerMTok: number } } = cloud) => {
  const quote = priceFor(id);
  return intentionsOf(provider, { id, ...extra }, quote.estimated ? undefined : quote);
};

test('local: loopback and private addresses, *.localhost and *.local; nothing else', () => {
  const local = [
    'http://127.0.0.1:11434/v1', 'http://127.8.9.10/v1', 'http://localhost:1234/v1', 'http://LOCALHOST/v1', 'http://gpu.localhost/v1',
    'http://[::1]:8080/v1', 'http://0.0.0.0:8000/v1', 'http://[::]/v1', 'http://10.1.2.3/v1', 'http://172.16.0.1/v1', 'http://172.31.255.255/v1',
    'http://192.168.1.20:8000/v1', 'http://169.254.10.10/v1', 'http://[fd12:3456::1]/v1', 'http://[fc00::1]/v1', 'http://[fe80::1]/v1',
    'http://[::ffff:127.0.0.1]/v1', 'http://[::ffff:192.168.0.9]/v1', 'http://gpu-box.local:11434/v1', 'http://2130706433/v1', 'http://0x7f.1/v1',
  ];
  const remote = [
    'https://api.openai.com/v1', 'http://172.32.0.1/v1', 'http://172.15.0.1/v1', 'http://11.0.0.1/v1', 'http://192.169.0.1/v1',
    'http://[2001:db8::1]/v1', 'http://[::ffff:8.8.8.8]/v1', 'http://localhost.evil.example/v1', 'http://127.0.0.1.nip.io/v1',
    'http://100.64.0.1/v1', 'http://local/v1', 'not a url', '',
  ];
  assert.deepEqual(local.filter((u) => !isLocalUrl(u)), []);
  assert.deepEqual(remote.filter((u) => isLocalUrl(u)), []);
});

test('vision, reasoner and fast from the stated families, words and the price table', () => {
  assert.deepEqual(of('gpt-4o'), ['vision']);
  assert.deepEqual(of('gpt-4o-mini'), ['vision', 'fast']);
  assert.deepEqual(of('openai/gpt-4.1-nano'), ['vision', 'fast']);
  assert.deepEqual(of('gpt-5'), ['vision', 'reasoner']);
  assert.deepEqual(of('gpt-5-mini'), ['vision', 'reasoner', 'fast']);
  assert.deepEqual(of('gpt-5-chat-latest'), ['vision']);
  assert.deepEqual(of('o3'), ['reasoner']);
  assert.deepEqual(of('o3-mini'), ['reasoner', 'fast']);
  assert.deepEqual(of('o4-mini'), ['reasoner', 'fast']);
  assert.deepEqual(of('o30'), []);
  assert.deepEqual(of('claude-sonnet-4-20250514'), ['vision']);
  assert.deepEqual(of('claude-3-5-haiku-latest'), ['vision', 'fast']);
  assert.deepEqual(of('gemini-2.5-flash'), ['vision', 'fast']);
  assert.deepEqual(of('gemini-2.5-pro'), ['vision']);
  assert.deepEqual(of('deepseek-r1:14b'), ['reasoner']);
  assert.deepEqual(of('deepseek-reasoner'), ['reasoner']);
  assert.deepEqual(of('qwq:32b'), ['reasoner']);
  assert.deepEqual(of('gemini-2.0-flash-thinking-exp'), ['vision', 'reasoner', 'fast']);
  assert.deepEqual(of('llava:13b'), ['vision']);
  assert.deepEqual(of('qwen2.5vl:7b'), ['vision']);
  assert.deepEqual(of('meta-llama/Llama-3.2-11B-Vision-Instruct'), ['vision']);
  assert.deepEqual(of('llama3.1:8b'), []);
  assert.deepEqual(of('phi-3-mini'), ['fast']);
  assert.deepEqual(of('minimax-m1'), [], 'a word, not a substring');
});

test('configuration says first: vision and reasoning true or false override the family', () => {
  assert.deepEqual(of('gpt-4o', { vision: false }), []);
  assert.deepEqual(of('my-model', { vision: true, reasoning: true }), ['vision', 'reasoner']);
  assert.deepEqual(of('o3', { reasoning: false }), []);
  assert.deepEqual(of('claude-sonnet-4', { reasoning: true }), ['vision', 'reasoner'], 'Claude thinks only when configured so');
});

test('fast by price: at or under $0.50 input and $2.50 output per million; a free price says nothing', () => {
  assert.deepEqual(of('m', { price: { inputPerMTok: 0.5, outputPerMTok: 2.5 } }), ['fast']);
  assert.deepEqual(of('m', { price: { inputPerMTok: 0.51, outputPerMTok: 1 } }), []);
  assert.deepEqual(of('m', { price: { inputPerMTok: 0.1, outputPerMTok: 2.6 } }), []);
  assert.deepEqual(of('m', { price: { inputPerMTok: 0, outputPerMTok: 0 } }), []);
  assert.deepEqual(of('m', {}, { baseUrl: 'https://x.example', price: { inputPerMTok: 0.2, outputPerMTok: 0.8 } }), ['fast'], 'the provider\'s price');
  assert.deepEqual(of('gpt-4o-mini-x', { price: { inputPerMTok: 5, outputPerMTok: 20 } }), ['vision', 'fast'], 'a small family is fast whatever its price');
  assert.deepEqual(intentionsOf(cloud, { id: 'm' }, { inputPerMTok: 0.3, outputPerMTok: 2.5 }), ['fast'], 'the table price passed in');
  assert.deepEqual(intentionsOf(cloud, { id: 'm', price: { inputPerMTok: 3, outputPerMTok: 15 } }, { inputPerMTok: 0.3, outputPerMTok: 2.5 }), [], 'the model\'s own price comes first');
});

test('a local endpoint adds local, in the fixed order', () => {
  assert.deepEqual(intentionsOf({ baseUrl: 'http://127.0.0.1:11434/v1' }, { id: 'qwen2.5vl:7b', contextLength: 32_768 }), ['local', 'vision']);
  assert.deepEqual(intentionsOf({ baseUrl: 'http://127.0.0.1:11434/v1' }, { id: 'deepseek-r1:1.5b', reasoning: true, vision: true, price: { inputPerMTok: 0.01, outputPerMTok: 0.01 } }),
    ['local', 'vision', 'reasoner', 'fast']);
});

test('matchesLink: every field the link sets, and its intention among the model\'s', () => {
  const m = { vendor: 'alfred', family: 'ollama', id: 'ollama/llama3.1:8b', intentions: ['local'] as const };
  assert.equal(matchesLink({ intention: 'local' }, m), true);
  assert.equal(matchesLink({ intention: 'vision' }, m), false);
  assert.equal(matchesLink({ vendor: 'alfred', intention: 'local' }, m), true);
  assert.equal(matchesLink({ vendor: 'copilot', intention: 'local' }, m), false);
  assert.equal(matchesLink({ family: 'ollama' }, m), true);
  assert.equal(matchesLink({ id: 'ollama/llama3.1:8b', family: 'lmstudio' }, m), false);
  assert.equal(matchesLink({}, m), true);
});
