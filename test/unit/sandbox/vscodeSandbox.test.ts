/** VS Code's own agent sandbox, configured instead of nested (core/sandbox/vscodeSandbox.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commandSandbox, VSCODE_SANDBOX, vscodeSandboxOn, vscodeSandboxSettings } from '../../../src/core/sandbox/vscodeSandbox';

test('the setting turns it on as VS Code reads it: true, "on", an older build\'s mode name; not false, "off" or absent', () => {
  assert.deepEqual([true, 'on', 'allowNetwork', false, 'off', undefined, ''].map(vscodeSandboxOn), [true, true, true, false, false, false, false]);
  assert.equal(commandSandbox('on', 'copilot-vscode'), 'vscode');
  assert.equal(commandSandbox('on', 'other'), 'alfred', 'Claude Code, Codex and the Copilot CLI run their commands outside VS Code\'s sandbox');
  assert.equal(commandSandbox(undefined, 'copilot-vscode'), 'alfred');
});

test('governance paths join the user\'s denyWrite, allow_write their allowWrite, the role\'s names the domain lists', () => {
  const current = {
    [VSCODE_SANDBOX.fileSystemLinux]: { denyWrite: ['/home/u/secrets'], denyRead: ['/home/u/.ssh'] },
    [VSCODE_SANDBOX.deniedDomains]: ['tracker.example'],
    [VSCODE_SANDBOX.allowedDomains]: ['*'],
  };
  const out = vscodeSandboxSettings(current, {
    denyWrite: ['/w/.alfred', '/w/.vscode/settings.json', '/home/u/secrets'], allowWrite: ['~/notes'],
    network: { allow: ['registry.npmjs.org', '*.github.com'], deny: ['gist.github.com'] },
  });
  assert.deepEqual(out, {
    [VSCODE_SANDBOX.fileSystemLinux]: { denyRead: ['/home/u/.ssh'], denyWrite: ['/home/u/secrets', '/w/.alfred', '/w/.vscode/settings.json'], allowWrite: ['~/notes'] },
    [VSCODE_SANDBOX.fileSystemMac]: { denyWrite: ['/w/.alfred', '/w/.vscode/settings.json', '/home/u/secrets'], allowWrite: ['~/notes'] },
    [VSCODE_SANDBOX.allowedDomains]: ['registry.npmjs.org', '*.github.com'],
    [VSCODE_SANDBOX.deniedDomains]: ['tracker.example', 'gist.github.com'],
  });
  // Every name allowed: the user's allowed list is left as it is; the reviewer's none is an empty list (no network).
  assert.equal(VSCODE_SANDBOX.allowedDomains in vscodeSandboxSettings({}, { denyWrite: [], allowWrite: [], network: { allow: ['*'], deny: [] } }), false);
  assert.deepEqual(vscodeSandboxSettings({}, { denyWrite: [], allowWrite: [], network: { allow: [], deny: [] } })[VSCODE_SANDBOX.allowedDomains], []);
});
