import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRedactor, envFileValues, redactToolInput } from '../../../../src/core/base/secrets/redact';

describe('trace redaction', () => {
  const r = createRedactor(['s3cr3t-from-dotenv', 'short']);

  it('masks token shapes, bearer tokens, URL credentials and JWTs in text', () => {
    const text = r.text('curl -H "Authorization: Bearer abcdefghijkl0123" https://bob:hunter22@example.com/x ghp_0123456789abcdefghijABCDEFGHIJ sk-ant-api03-abcdefghijklmnop eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmno');
    assert.doesNotMatch(text, /abcdefghijkl0123|hunter22|ghp_0123|sk-ant-api03|eyJzdWIi/);
    assert.match(text, /https:\/\/bob:\*\*\*@example\.com/);
  });

  it('masks assignments of secret-named keys and the workspace\'s .env values, wherever they appear', () => {
    assert.equal(r.text('export API_KEY=abc123xyz && run'), 'export API_KEY=*** && run');
    assert.equal(r.text('echo s3cr3t-from-dotenv | base64'), 'echo *** | base64');
    assert.equal(r.text('short stays'), 'short stays', 'too short to mask everywhere');
    assert.equal(r.text('max_tokens = 4000'), 'max_tokens = 4000');
  });

  it('masks values under secret-named keys of structured input, and nothing else', () => {
    assert.deepEqual(r.value({ command: 'ls', env: { GITHUB_TOKEN: 'x1', password: 'pw', maxTokens: 10 }, list: ['s3cr3t-from-dotenv'] }),
      { command: 'ls', env: { GITHUB_TOKEN: '***', password: '***', maxTokens: 10 }, list: ['***'] });
  });

  it('masks every text argument of a call on a .env file but its path', () => {
    assert.deepEqual(redactToolInput(r, { path: '.env.local', oldString: 'A=1', newString: 'A=2' }), { path: '.env.local', oldString: '***', newString: '***' });
    assert.deepEqual(redactToolInput(r, { path: 'src/a.js', newString: 'x = 1' }), { path: 'src/a.js', newString: 'x = 1' });
  });

  it('reads .env values: quotes removed, comments and blank lines skipped', () => {
    assert.deepEqual(envFileValues('# comment\nA=1\nexport B="two words"\nC=\'three\'\nD=four # note\n\nE=\n'), ['1', 'two words', 'three', 'four']);
  });
});
