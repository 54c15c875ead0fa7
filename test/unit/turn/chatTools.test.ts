import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chosenToolPatterns, offersTool } from '../../../src/core/turn/chatTools';

test('Alfred\'s own tools are offered by default; another only when the user chose it', () => {
  assert.equal(offersTool('ctx_read', true, []), true);
  assert.equal(offersTool('copilot_readFile', false, []), false);
  assert.equal(offersTool('vscode_get_confirmation', false, []), false);
  assert.equal(offersTool('copilot_readFile', false, ['copilot_*']), true);
  assert.equal(offersTool('mcp_github_search', false, ['mcp_github_*']), true);
  assert.equal(offersTool('copilot_readFile', false, ['mcp_github_*']), false);
  assert.equal(offersTool('anything_at_all', false, ['*']), true);
  assert.equal(offersTool('fetch_webpage', false, ['@web']), true);
});

test('the chosen patterns: the setting\'s and the chat\'s, each once', () => {
  assert.deepEqual(chosenToolPatterns(['copilot_*', ' ', 3, 'x'], ['x', 'mcp_*']), ['copilot_*', 'x', 'mcp_*']);
  assert.deepEqual(chosenToolPatterns(undefined, undefined), []);
});
