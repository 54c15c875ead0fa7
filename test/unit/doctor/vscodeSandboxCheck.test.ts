/** Which sandbox holds each agent's commands, as `alfred doctor` says it (core/doctor/vscodeSandboxCheck.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { vscodeSandboxCheck } from '../../../src/core/doctor/vscodeSandboxCheck';

test('holding, not in use, and on but short (what is missing, where, and the command that fills it in)', () => {
  assert.deepEqual(vscodeSandboxCheck({ holds: true }), {
    name: 'VS Code sandbox', state: 'ok',
    detail: 'on, with Alfred\'s protected paths and the role\'s network names: it holds Copilot\'s terminal commands in VS Code (Alfred nests none inside); Alfred\'s sandbox holds the other agents\' commands and ctx_shell',
  });
  assert.deepEqual(vscodeSandboxCheck({ holds: false, off: true, missing: ['chat.agent.sandbox.enabled is off'], file: '/h/.config/Code/User/settings.json' }), {
    name: 'VS Code sandbox', state: 'ok',
    detail: 'not in use: chat.agent.sandbox.enabled is off (/h/.config/Code/User/settings.json). Alfred\'s sandbox holds every agent\'s commands',
  });
  assert.deepEqual(vscodeSandboxCheck({ holds: false, off: false, missing: ['chat.agent.sandbox.allowNetwork is not false', 'chat.agent.sandbox.fileSystem.linux denyWrite lacks /w/.alfred'], file: '/u/settings.json' }), {
    name: 'VS Code sandbox', state: 'warn',
    detail: 'on, but short of Alfred\'s rules (/u/settings.json): chat.agent.sandbox.allowNetwork is not false; chat.agent.sandbox.fileSystem.linux denyWrite lacks /w/.alfred. '
      + 'Alfred\'s sandbox still holds every agent\'s commands, Copilot\'s nested inside VS Code\'s; run "Alfred: Put Alfred\'s Rules in VS Code\'s Sandbox" (alfred.configureVscodeSandbox) to fill it in',
  });
});
