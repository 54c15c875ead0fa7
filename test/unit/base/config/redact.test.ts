import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isEnvFile, redactSecrets } from '../../../../src/core/base/config/redact';

test('values of keys that name a secret are hidden, in TOML, JSON, YAML and env syntax', () => {
  const text = [
    'api_key = "abc123def"',
    '"apiKey": "xyz-987",',
    'password: hunter2',
    'export GITHUB_TOKEN=ghs_notreallyatoken',
    'client_secret=\'s3cr3t\'',
    '{"auth": "u:p", "name": "ok"}',
  ].join('\n');
  assert.equal(redactSecrets(text), [
    'api_key = "***"',
    '"apiKey": "***",',
    'password: ***',
    'export GITHUB_TOKEN=***',
    'client_secret=\'***\'',
    '{"auth": "***", "name": "ok"}',
  ].join('\n'));
});

test('bearer tokens and well-known key shapes are hidden wherever they appear', () => {
  assert.equal(redactSecrets('curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig" x'), 'curl -H "Authorization: Bearer ***" x');
  assert.equal(redactSecrets('run --key sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX now'), 'run --key *** now');
  assert.equal(redactSecrets('ANTHROPIC sk-ant-api03-abcdefghijklmnop_qrs'), 'ANTHROPIC ***');
  assert.equal(redactSecrets('token ghp_0123456789abcdefghijABCDEFGHIJ'), 'token ***');
  assert.equal(redactSecrets('id AKIAIOSFODNN7EXAMPLE'), 'id ***');
});

test('ordinary settings that merely mention tokens are left alone', () => {
  const role = '[limits]\nmax_context_tokens = 100000\nmax_cost_usd = 2.0\n[role]\ndescription = "auth review, no tokens"\n';
  assert.equal(redactSecrets(role), role);
  const hooks = '{"hooks": {"PreToolUse": [{"type": "command", "command": "node alfred.mjs hook PreToolUse", "timeout": 30}]}}';
  assert.equal(redactSecrets(hooks), hooks);
});

test('a .env file or a file marked secret hides every value, comments kept', () => {
  const env = '# database\nDB_HOST=localhost\nDB_PASS="pa ss"\n\nPORT=5432\n';
  assert.equal(redactSecrets(env, { allValues: true }), '# database\nDB_HOST=***\nDB_PASS="***"\n\nPORT=***\n');
  assert.equal(isEnvFile('/w/.env'), true);
  assert.equal(isEnvFile('/w/.env.local'), true);
  assert.equal(isEnvFile('/w/prod.env'), true);
  assert.equal(isEnvFile('/w/environment.ts'), false);
});

test('private key blocks keep their first and last line only, and the line count', () => {
  const pem = 'key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nAKCAQ\n-----END RSA PRIVATE KEY-----\nafter';
  const out = redactSecrets(pem);
  assert.equal(out, 'key:\n-----BEGIN RSA PRIVATE KEY-----\n***\n***\n-----END RSA PRIVATE KEY-----\nafter');
  assert.equal(out.split('\n').length, pem.split('\n').length);
});

test('a private key written on one line (JSON escapes) keeps only its markers', () => {
  const line = '"key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQ\\n-----END PRIVATE KEY-----"';
  assert.equal(redactSecrets(line), '"key": "-----BEGIN PRIVATE KEY-----***-----END PRIVATE KEY-----"');
});
