/** VS Code's own agent sandbox, configured instead of nested (core/sandbox/vscodeSandbox.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  commandSandbox, effectiveSettings, neededDenyWrite, runsInVscodeSandbox, VSCODE_SANDBOX, vscodeSandboxHolds, vscodeSandboxOn, vscodeSandboxSettings,
  type VscodeSandboxInput,
} from '../../../src/core/sandbox/vscodeSandbox';

const S = VSCODE_SANDBOX;
const base = { workspaceFolder: '/w', home: '/h', allowWrite: [] as string[] };
const INPUT: VscodeSandboxInput = {
  ...base, denyWrite: ['/w/.alfred', '/w/.vscode/settings.json', '/h/.bashrc', '/h/notes/.git/hooks'], allowWrite: ['~/notes'],
  network: { allow: ['registry.npmjs.org', '*.github.com'], deny: ['gist.github.com'] },
};

test('the setting names are VS Code 1.139\'s', () => {
  assert.deepEqual(S, {
    enabled: 'chat.agent.sandbox.enabled', fileSystemLinux: 'chat.agent.sandbox.fileSystem.linux', fileSystemMac: 'chat.agent.sandbox.fileSystem.mac',
    allowNetwork: 'chat.agent.sandbox.allowNetwork', allowUnsandboxed: 'chat.agent.sandbox.allowUnsandboxedCommands',
    retryWithNetwork: 'chat.agent.sandbox.retryWithAllowNetworkRequests',
    allowedDomains: 'chat.agent.allowedNetworkDomains', deniedDomains: 'chat.agent.deniedNetworkDomains',
  });
});

test('the setting turns it on as VS Code reads it: true, "on", an older build\'s mode name; not false, "off" or absent', () => {
  assert.deepEqual([true, 'on', 'allowNetwork', false, 'off', undefined, ''].map(vscodeSandboxOn), [true, true, true, false, false, false, false]);
});

test('VS Code\'s sandbox needs only the protected paths it could write: the workspace\'s and those under an allowWrite path', () => {
  assert.deepEqual(neededDenyWrite(INPUT), ['/w/.alfred', '/w/.vscode/settings.json', '/h/notes/.git/hooks']);
  assert.deepEqual(neededDenyWrite({ ...INPUT, allowWrite: [] }), ['/w/.alfred', '/w/.vscode/settings.json']);
  assert.deepEqual(neededDenyWrite({ ...INPUT, allowWrite: [] }, ['~']), INPUT.denyWrite, 'the user\'s own allowWrite of the whole home');
  assert.deepEqual(neededDenyWrite({ ...INPUT, denyWrite: ['/wx/a', '/w'] , allowWrite: [] }), ['/w'], 'a sibling whose name starts alike is not inside');
});

test('what is written: the user\'s entries kept, the needed paths added, runs outside the sandbox off, the role\'s names and VS Code\'s filter on', () => {
  const current = {
    [S.fileSystemLinux]: { denyWrite: ['/h/secrets'], denyRead: ['/h/.ssh'] },
    [S.deniedDomains]: ['tracker.example.com'],
    [S.allowedDomains]: ['*'],
  };
  assert.deepEqual(vscodeSandboxSettings(current, INPUT), {
    [S.fileSystemLinux]: { denyRead: ['/h/.ssh'], denyWrite: ['/h/secrets', '/w/.alfred', '/w/.vscode/settings.json', '/h/notes/.git/hooks'], allowWrite: ['~/notes'] },
    [S.fileSystemMac]: { denyWrite: ['/w/.alfred', '/w/.vscode/settings.json', '/h/notes/.git/hooks'], allowWrite: ['~/notes'] },
    [S.allowUnsandboxed]: false,
    [S.allowNetwork]: false,
    [S.retryWithNetwork]: false,
    [S.allowedDomains]: ['registry.npmjs.org', '*.github.com'],
    [S.deniedDomains]: ['tracker.example.com', 'gist.github.com'],
  });
  // Written once, nothing is left to change.
  assert.deepEqual(vscodeSandboxSettings({ ...current, ...vscodeSandboxSettings(current, INPUT) }, INPUT), {});
});

test('a role with no network name gets both lists empty (VS Code then blocks every name), the user\'s denied names dropped', () => {
  const out = vscodeSandboxSettings({ [S.deniedDomains]: ['tracker.example.com'] }, { ...base, denyWrite: [], network: { allow: [], deny: [] } });
  assert.deepEqual([out[S.allowedDomains], out[S.deniedDomains], out[S.allowNetwork]], [[], [], false]);
  // Every name allowed: the network settings are left as the user has them.
  const open = vscodeSandboxSettings({}, { ...base, denyWrite: [], network: { allow: ['*'], deny: [] } });
  assert.deepEqual(Object.keys(open).sort(), [S.allowUnsandboxed, S.fileSystemLinux, S.fileSystemMac].sort());
});

test('it holds only when on, closed to runs outside it, denying every needed path, and reaching no name the role does not allow', () => {
  const good: Record<string, unknown> = { [S.enabled]: 'on', ...vscodeSandboxSettings({}, INPUT) };
  assert.deepEqual(vscodeSandboxHolds(good, INPUT, 'linux'), { holds: true });
  assert.deepEqual(vscodeSandboxHolds(good, INPUT, 'darwin'), { holds: true });
  assert.deepEqual(vscodeSandboxHolds({ ...good, [S.enabled]: 'off' }, INPUT, 'linux'), { holds: false, off: true, missing: ['chat.agent.sandbox.enabled is off'] });
  assert.deepEqual(vscodeSandboxHolds({ [S.enabled]: true }, INPUT, 'linux'), {
    holds: false, off: false, missing: [
      'chat.agent.sandbox.allowUnsandboxedCommands is not false',
      'chat.agent.sandbox.fileSystem.linux denyWrite lacks 3 protected paths (/w/.alfred, /w/.vscode/settings.json, /h/notes/.git/hooks)',
      'chat.agent.sandbox.allowNetwork is not false', 'chat.agent.sandbox.retryWithAllowNetworkRequests is not false',
    ],
  }, 'VS Code\'s defaults: runs outside on request, every name reachable');
  const fsLinux = good[S.fileSystemLinux] as { denyWrite: string[] };
  assert.deepEqual(vscodeSandboxHolds({ ...good, [S.fileSystemLinux]: { ...fsLinux, denyWrite: fsLinux.denyWrite.filter((p) => p !== '/w/.alfred') } }, INPUT, 'linux'),
    { holds: false, off: false, missing: ['chat.agent.sandbox.fileSystem.linux denyWrite lacks /w/.alfred'] });
  assert.deepEqual(vscodeSandboxHolds({ ...good, [S.fileSystemLinux]: { ...fsLinux, allowWrite: ['~'] } }, INPUT, 'linux'),
    { holds: false, off: false, missing: ['chat.agent.sandbox.fileSystem.linux denyWrite lacks /h/.bashrc'] }, 'the user\'s allowWrite of the home needs the home\'s protected paths');
  assert.deepEqual(vscodeSandboxHolds({ ...good, [S.allowedDomains]: ['registry.npmjs.org', 'evil.example.com'] }, INPUT, 'linux'),
    { holds: false, off: false, missing: ['chat.agent.allowedNetworkDomains allows what the role does not (evil.example.com)'] });
  assert.deepEqual(vscodeSandboxHolds({ ...good, [S.allowedDomains]: [] }, INPUT, 'linux'),
    { holds: false, off: false, missing: ['chat.agent.allowedNetworkDomains is empty, so every name but the denied ones is reachable'] });
  assert.deepEqual(vscodeSandboxHolds({ ...good, [S.deniedDomains]: [] }, INPUT, 'linux'), { holds: false, off: false, missing: ['chat.agent.deniedNetworkDomains lacks gist.github.com'] });
  // No name at all: both lists empty holds (VS Code blocks every name); a role that reaches every name asks nothing of the network settings.
  const none = { ...base, denyWrite: [], network: { allow: [], deny: [] } };
  assert.deepEqual(vscodeSandboxHolds({ [S.enabled]: 'on', ...vscodeSandboxSettings({}, none) }, none, 'linux'), { holds: true });
  const open = { ...base, denyWrite: [], network: { allow: ['*'], deny: [] } };
  assert.deepEqual(vscodeSandboxHolds({ [S.enabled]: 'on', [S.allowUnsandboxed]: false }, open, 'linux'), { holds: true });
});

test('the workspace\'s settings are laid over the user\'s as VS Code merges them: objects key by key, lists replaced', () => {
  const user = { [S.enabled]: 'on', [S.fileSystemLinux]: { denyWrite: ['/w/.alfred'], denyRead: ['/h/.ssh'] } };
  assert.deepEqual(effectiveSettings(user, { [S.fileSystemLinux]: { denyWrite: [] }, [S.enabled]: 'off' }), {
    [S.enabled]: 'off', [S.fileSystemLinux]: { denyWrite: [], denyRead: ['/h/.ssh'] },
  });
});

test('only Copilot\'s terminal tool in VS Code runs in VS Code\'s sandbox, and not when it asks to run outside it', () => {
  const vscode = { format: 'vscode' };
  assert.equal(runsInVscodeSandbox(vscode, 'run_in_terminal', { command: 'make' }), true);
  assert.equal(runsInVscodeSandbox(vscode, 'runInTerminal', { command: 'make' }), true);
  assert.equal(runsInVscodeSandbox(vscode, 'run_in_terminal', { command: 'make', requestUnsandboxedExecution: true }), false);
  assert.equal(runsInVscodeSandbox(vscode, 'create_and_run_task', { task: { command: 'make' } }), false, 'a task runs outside VS Code\'s sandbox');
  assert.equal(runsInVscodeSandbox(vscode, 'send_to_terminal', { command: 'make' }), false);
  assert.equal(runsInVscodeSandbox({ format: 'vscode', agent: 'claude-code' }, 'Bash', { command: 'make' }), false);
  assert.equal(runsInVscodeSandbox({ format: 'vscode', agent: 'claude-code' }, 'run_in_terminal', { command: 'make' }), false);
  assert.equal(runsInVscodeSandbox({ format: 'copilot-cli' }, 'run_in_terminal', { command: 'make' }), false);
  assert.equal(commandSandbox({ holds: true }, 'copilot-vscode'), 'vscode');
  assert.equal(commandSandbox({ holds: true }, 'other'), 'alfred');
  assert.equal(commandSandbox({ holds: false, off: false, missing: [] }, 'copilot-vscode'), 'alfred');
});
