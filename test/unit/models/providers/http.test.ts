/** The shared HTTP helpers: error bodies of each server family, URL joining, what counts as a secret. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorDetail, hostOf, joinUrl, secretsOf, withoutSecrets } from '../../../../src/core/models/providers/http';
import { ProviderError } from '../../../../src/core/models/providers/types';

describe('provider HTTP helpers', () => {
  it('finds the message of each kind of error body', () => {
    assert.equal(errorDetail('{"error":{"message":"Rate limit reached","type":"requests"}}'), 'Rate limit reached');
    assert.equal(errorDetail('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'), 'Overloaded');
    assert.equal(errorDetail('{"error":"model \\"llama9\\" not found, try pulling it first"}'), 'model "llama9" not found, try pulling it first');
    assert.equal(errorDetail('{"detail":"Not Found"}'), 'Not Found');
    assert.equal(errorDetail('{"detail":[{"loc":["body"],"msg":"field required"}]}'), '');
    assert.equal(errorDetail('<html><body><h1>502 Bad Gateway</h1>\n<hr>nginx</body></html>'), '502 Bad Gateway nginx');
    assert.equal(errorDetail(''), '');
    assert.equal(errorDetail(`{"error":{"message":"${'x'.repeat(600)}"}}`), `${'x'.repeat(500)}…`);
  });

  it('joins a base URL and a path with one slash', () => {
    assert.equal(joinUrl('http://127.0.0.1:11434/v1', 'chat/completions'), 'http://127.0.0.1:11434/v1/chat/completions');
    assert.equal(joinUrl('http://127.0.0.1:11434/v1//', '/models'), 'http://127.0.0.1:11434/v1/models');
  });

  it('names only the host in messages, never credentials, path or query', () => {
    assert.equal(hostOf('https://user:pass@api.example.com:8443/v1/chat/completions?key=abc'), 'api.example.com:8443');
    assert.equal(hostOf('not a url'), 'the provider');
  });

  it('counts the key and credential-like extra headers as secrets, and blanks them out of errors', () => {
    const secrets = secretsOf({ baseUrl: 'x', apiKey: 'sk-1', headers: { 'HTTP-Referer': 'https://alfred.example', 'X-Proxy-Token': 'tok-2', 'api-key': 'azure-3' } });
    assert.deepEqual(secrets, ['sk-1', 'tok-2', 'azure-3']);
    const error = withoutSecrets(new ProviderError('http', 'bad tok-2 and sk-1', 400), secrets) as ProviderError;
    assert.deepEqual([error.kind, error.status, error.message], ['http', 400, 'bad [redacted] and [redacted]']);
    assert.deepEqual(secretsOf({ baseUrl: 'x' }), []);
  });
});
