import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HOW_TO_STORE_KEY, parseKeyReference, redactSecrets, resolveKey, secretsOf, type KeySources } from '../../../../src/core/models/providers/keys';

const KEY = 'sk-live-4f9a2b7c1d3e5f60718293a4b5c6d7e8';

function sources(env: Record<string, string | undefined>, secrets: Record<string, string> = {}): KeySources {
  return { env, secret: async (name) => (Object.hasOwn(secrets, name) ? secrets[name] : undefined) };
}

test('parseKeyReference: $VAR, ${VAR}, secret:NAME and absent', () => {
  assert.deepEqual(parseKeyReference('$OPENAI_API_KEY'), { ok: true, ref: { kind: 'env', variable: 'OPENAI_API_KEY' } });
  assert.deepEqual(parseKeyReference(' ${_k2} '), { ok: true, ref: { kind: 'env', variable: '_k2' } });
  assert.deepEqual(parseKeyReference('secret:openrouter.main'), { ok: true, ref: { kind: 'secret', name: 'openrouter.main' } });
  assert.deepEqual(parseKeyReference(undefined), { ok: true, ref: { kind: 'none' } });
  assert.deepEqual(parseKeyReference(null), { ok: true, ref: { kind: 'none' } });
});

test('parseKeyReference refuses literals, commands, shell expansions and empty names, never repeating the value', () => {
  const cases: Array<[unknown, string]> = [
    [KEY, `looks like a literal key, which a settings file must not hold: ${HOW_TO_STORE_KEY}`],
    ['!rm -rf ~', `starts with "!": Alfred never runs a command to get a key; ${HOW_TO_STORE_KEY}`],
    ['$(cat ~/.openai)', 'is not a key reference: write "$NAME" or "${NAME}", NAME made of letters, digits and _ (no commands, no defaults)'],
    ['${OPENAI:-sk-live-fallback1234}', 'is not a key reference: write "$NAME" or "${NAME}", NAME made of letters, digits and _ (no commands, no defaults)'],
    ['$1BAD', 'is not a key reference: write "$NAME" or "${NAME}", NAME made of letters, digits and _ (no commands, no defaults)'],
    ['secret:', '"secret:" needs a name of 1 to 64 letters, digits, _, . or -, the name given to "Alfred: Set Provider Key"'],
    ['secret:  ', '"secret:" needs a name of 1 to 64 letters, digits, _, . or -, the name given to "Alfred: Set Provider Key"'],
    ['secret:a/b', '"secret:" needs a name of 1 to 64 letters, digits, _, . or -, the name given to "Alfred: Set Provider Key"'],
    ['', `is empty: leave "key" out for an endpoint that needs none, or ${HOW_TO_STORE_KEY}`],
    [42, `must be a key reference (a string), not a literal key: ${HOW_TO_STORE_KEY}`],
  ];
  for (const [input, reason] of cases) {
    const r = parseKeyReference(input);
    assert.deepEqual(r, { ok: false, reason }, String(input));
  }
  assert.ok(!JSON.stringify(parseKeyReference('${OPENAI:-sk-live-fallback1234}')).includes('fallback1234'));
  assert.equal(HOW_TO_STORE_KEY, 'store the key in an environment variable and write "$NAME" (or "${NAME}"), or run "Alfred: Set Provider Key" to keep it in VS Code\'s secret storage and write "secret:NAME"');
});

test('parseKeyReference: a 200 KB value is refused at once', () => {
  const started = Date.now();
  assert.equal(parseKeyReference(`$${'A'.repeat(200_000)}`).ok, false);
  assert.equal(parseKeyReference('x'.repeat(200_000)).ok, false);
  assert.equal(parseKeyReference(`secret:${'a'.repeat(200_000)}`).ok, false);
  assert.ok(Date.now() - started < 500);
});

test('resolveKey reads the environment it is given at request time, trimmed', async () => {
  const env: Record<string, string | undefined> = { OPENAI_API_KEY: `${KEY}\n` };
  assert.deepEqual(await resolveKey({ kind: 'env', variable: 'OPENAI_API_KEY' }, sources(env)), { ok: true, key: KEY });
  env.OPENAI_API_KEY = 'sk-rotated-000000000000';
  assert.deepEqual(await resolveKey({ kind: 'env', variable: 'OPENAI_API_KEY' }, sources(env)), { ok: true, key: 'sk-rotated-000000000000' });
  assert.deepEqual(await resolveKey({ kind: 'none' }, sources(env)), { ok: true, key: '' });
});

test('resolveKey: ${HOME} is just the variable HOME — which variable holds a key is the user\'s call', async () => {
  const ref = parseKeyReference('${HOME}');
  assert.ok(ref.ok);
  assert.deepEqual(await resolveKey(ref.ref, sources({ HOME: '/home/ana' })), { ok: true, key: '/home/ana' });
});

test('resolveKey failures name the variable or secret, never a value', async () => {
  const env = { EMPTY: '  ', SPACED: 'sk-has a-space-123', CRLF: 'sk-abc\r\nX-Evil: 1', UNI: 'sk-clé-12345678' };
  const s = sources(env, { blank: '' });
  assert.deepEqual(await resolveKey({ kind: 'env', variable: 'MISSING' }, s), { ok: false, reason: 'the environment variable MISSING is not set' });
  assert.deepEqual(await resolveKey({ kind: 'env', variable: 'EMPTY' }, s), { ok: false, reason: 'the environment variable EMPTY is empty' });
  for (const v of ['SPACED', 'CRLF', 'UNI']) {
    assert.deepEqual(await resolveKey({ kind: 'env', variable: v }, s),
      { ok: false, reason: `the environment variable ${v} is not usable as a key: it holds spaces, control or non-ASCII characters` });
  }
  assert.deepEqual(await resolveKey({ kind: 'env', variable: 'toString' }, s), { ok: false, reason: 'the environment variable toString is not set' }, 'inherited names are not variables');
  assert.deepEqual(await resolveKey({ kind: 'secret', name: 'nope' }, s),
    { ok: false, reason: 'the secret "nope" in VS Code\'s secret storage is not set: run "Alfred: Set Provider Key"' });
  assert.deepEqual(await resolveKey({ kind: 'secret', name: 'blank' }, s), { ok: false, reason: 'the secret "blank" in VS Code\'s secret storage is empty' });
  const throwing: KeySources = { env: {}, secret: async () => { throw new Error(`storage broke near ${KEY}`); } };
  assert.deepEqual(await resolveKey({ kind: 'secret', name: 'x' }, throwing), { ok: false, reason: 'the secret "x" in VS Code\'s secret storage could not be read' });
});

test('resolveKey reads a secret by name', async () => {
  assert.deepEqual(await resolveKey({ kind: 'secret', name: 'openrouter' }, sources({}, { openrouter: KEY })), { ok: true, key: KEY });
});

test('secretsOf: the resolved keys of every provider, once each, without the unresolved or empty ones', async () => {
  const s = sources({ A: KEY, B: KEY }, { c: 'sk-ant-secretvalue-99999' });
  const got = await secretsOf([
    { key: { kind: 'env', variable: 'A' } }, { key: { kind: 'env', variable: 'B' } }, { key: { kind: 'secret', name: 'c' } },
    { key: { kind: 'env', variable: 'MISSING' } }, { key: { kind: 'none' } },
  ], s);
  assert.deepEqual(got, [KEY, 'sk-ant-secretvalue-99999']);
});

test('redactSecrets: plain, JSON-escaped, URL-encoded (either hex case, form or component) and base64 forms', () => {
  const odd = 'k3y/with+sp ce&"q"=1';
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const text = [
    `Authorization: Bearer ${KEY}`,
    `url=https://x.example/?key=${encodeURIComponent(odd)}`,
    `lower=${encodeURIComponent(odd).toLowerCase()}`,
    `form=${new URLSearchParams({ key: odd }).toString()}`,
    `json=${JSON.stringify({ key: odd })}`,
    `basic=Basic ${b64(`user:${KEY}`)}`,
    `b64a=${b64(KEY)} b64b=${b64(`x${KEY}`)} b64c=${b64(`xy${KEY}`)}`,
    `urlsafe=${b64(`xy${odd}`).replace(/\+/g, '-').replace(/\//g, '_')}`,
  ].join('\n');
  const out = redactSecrets(text, [KEY, odd]);
  assert.equal(out.split('\n')[0], 'Authorization: Bearer ***');
  assert.equal(out.split('\n')[1], 'url=https://x.example/?key=***');
  assert.equal(out.split('\n')[2], 'lower=***');
  assert.equal(out.split('\n')[3], 'form=key=***');
  assert.equal(out.split('\n')[4], 'json={"key":"***"}');
  assert.equal(out.split('\n')[5], 'basic=Basic dXNlcjp***');
  assert.match(out.split('\n')[6]!, /^b64a=\*\*\*[A-Za-z0-9+/=]{0,3} b64b=[A-Za-z0-9+/]{0,3}\*\*\*[A-Za-z0-9+/=]{0,3} b64c=[A-Za-z0-9+/]{0,3}\*\*\*[A-Za-z0-9+/=]{0,3}$/);
  assert.match(out.split('\n')[7]!, /^urlsafe=[A-Za-z0-9_-]{0,3}\*\*\*[A-Za-z0-9_=-]{0,3}$/);
  for (const leak of [KEY, odd, 'sk-live', b64(KEY).slice(4, 20), encodeURIComponent(odd)]) assert.ok(!out.includes(leak), leak);
});

test('redactSecrets: short placeholders are left alone, a secret holding another is masked whole, text without secrets is unchanged', () => {
  assert.equal(redactSecrets('key ollama for ollama', ['ollama']), 'key ollama for ollama');
  assert.equal(redactSecrets('a sk-abcdefgh-long b sk-abcdefgh c', ['sk-abcdefgh', 'sk-abcdefgh-long']), 'a *** b *** c');
  assert.equal(redactSecrets('nothing here', [KEY]), 'nothing here');
  assert.equal(redactSecrets('', []), '');
});

test('redactSecrets: 200 KB of text and a lone surrogate do not blow up', () => {
  const big = `${'x'.repeat(100_000)}${KEY}${'y'.repeat(100_000)}`;
  const started = Date.now();
  assert.equal(redactSecrets(big, [KEY, '\ud800lonesurrogate']), `${'x'.repeat(100_000)}***${'y'.repeat(100_000)}`);
  assert.ok(Date.now() - started < 1_000);
});
