import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactedDiff } from '../../../../src/core/base/config/diff';

test('a file named by its absolute path gets one slash after a/ and b/, as git writes it', () => {
  const { text } = redactedDiff('/home/u/.local/share/code-server/User/settings.json', '{}\n', '{ "a": 1 }\n');
  assert.equal(text.split('\n').slice(0, 2).join('\n'), '--- a/home/u/.local/share/code-server/User/settings.json\n+++ b/home/u/.local/share/code-server/User/settings.json');
  assert.match(redactedDiff('/new.json', null, 'x\n').text, /^--- \/dev\/null\n\+\+\+ b\/new\.json\n/);
  assert.match(redactedDiff('rel/x.toml', 'a\n', 'b\n').text, /^--- a\/rel\/x\.toml\n\+\+\+ b\/rel\/x\.toml\n/);
});
