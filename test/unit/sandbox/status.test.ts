/** What the dashboard and /doctor say about the shell sandbox, for each role setting and machine. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sandboxStatus } from '../../../src/core/sandbox/status';

const bwrap = { kind: 'bwrap' as const, path: '/usr/bin/bwrap' };
const none = { kind: 'none' as const, why: 'bwrap is not installed' };

test('kernel where there is one; parsing, refusal or off where there is not or the role says so', () => {
  assert.deepEqual(sandboxStatus({ name: 'coder', sandbox: 'auto' }, bwrap), { mode: 'auto', role: 'coder', state: 'kernel', kind: 'bwrap' });
  assert.deepEqual(sandboxStatus({ name: 'coder', sandbox: 'required' }, bwrap), { mode: 'required', role: 'coder', state: 'kernel', kind: 'bwrap' });
  assert.deepEqual(sandboxStatus({ name: 'coder', sandbox: 'auto' }, none), { mode: 'auto', role: 'coder', state: 'parsing', why: 'bwrap is not installed' });
  assert.deepEqual(sandboxStatus({ name: 'strict', sandbox: 'required' }, none), { mode: 'required', role: 'strict', state: 'refused', why: 'bwrap is not installed' });
  assert.deepEqual(sandboxStatus({ name: 'loose', sandbox: 'off' }, bwrap), { mode: 'off', role: 'loose', state: 'off' });
  assert.deepEqual(sandboxStatus({ name: 'locked', sandbox: 'strict' }, bwrap, 'x64'), { mode: 'strict', role: 'locked', state: 'kernel', kind: 'bwrap', noUnixSockets: true });
  assert.deepEqual(sandboxStatus({ name: 'locked', sandbox: 'strict' }, bwrap, 'arm64'), { mode: 'strict', role: 'locked', state: 'kernel', kind: 'bwrap', noUnixSockets: true });
  assert.deepEqual(sandboxStatus({ name: 'locked', sandbox: 'strict' }, bwrap, 'riscv64'), { mode: 'strict', role: 'locked', state: 'kernel', kind: 'bwrap' }, 'no filter for this architecture');
  assert.deepEqual(sandboxStatus({ name: 'locked', sandbox: 'strict' }, bwrap, 'x64', 'bwrap: prctl(PR_SET_SECCOMP): Invalid argument'), {
    mode: 'strict', role: 'locked', state: 'refused', kind: 'bwrap', why: 'bubblewrap cannot set up the strict sandbox here: bwrap: prctl(PR_SET_SECCOMP): Invalid argument',
  }, 'the filter\'s probe failed: shell is refused, and the status says why');
  assert.deepEqual(sandboxStatus({ name: 'coder', sandbox: 'auto' }, bwrap, 'x64', 'bwrap: prctl(PR_SET_SECCOMP): Invalid argument'), { mode: 'auto', role: 'coder', state: 'kernel', kind: 'bwrap' }, 'only strict has the filter');
  assert.deepEqual(sandboxStatus({ name: 'locked', sandbox: 'strict' }, { kind: 'sandbox-exec', path: '/usr/bin/sandbox-exec' }, 'arm64'), { mode: 'strict', role: 'locked', state: 'kernel', kind: 'sandbox-exec' });
  assert.deepEqual(sandboxStatus({ name: 'locked', sandbox: 'strict' }, none), { mode: 'strict', role: 'locked', state: 'refused', why: 'bwrap is not installed' });
});

test('what the role writes besides the workspace and what it reaches, where the role says', () => {
  const network = { allow: ['registry.npmjs.org'], deny: [] };
  assert.deepEqual(sandboxStatus({ name: 'coder', sandbox: 'auto', allowWrite: ['~/notes'], network }, bwrap), {
    mode: 'auto', role: 'coder', state: 'kernel', kind: 'bwrap', allowWrite: ['~/notes'], network: { kind: 'filtered', rules: network },
  });
  assert.deepEqual(sandboxStatus({ name: 'admin', sandbox: 'auto', network: { allow: ['*'], deny: [] } }, bwrap).network, { kind: 'open', why: 'every name allowed' });
  assert.deepEqual(sandboxStatus({ name: 'coder', sandbox: 'auto', network }, { kind: 'sandbox-exec', path: '/usr/bin/sandbox-exec' }).network, { kind: 'open', why: 'sandbox-exec has no network namespace' });
});

test('the addresses an allowed name may not lead to: loopback, link-local (metadata), private, unspecified', async () => {
  const { localAddressProblem } = await import('../../../src/core/sandbox/netRules');
  assert.deepEqual(['127.0.0.1', '::1', '169.254.169.254', '10.0.0.2', '172.20.1.1', '192.168.1.1', '100.64.0.1', '0.0.0.0', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '93.184.216.34', '2606:4700::1']
    .map((a) => localAddressProblem(a, [])), ['a loopback address', 'a loopback address', 'a link-local address', 'a private address', 'a private address', 'a private address', 'a private address',
    'an unspecified address', 'a private address', 'a link-local address', 'a loopback address', undefined, undefined]);
  assert.equal(localAddressProblem('127.0.0.1', ['127.0.0.1']), undefined, 'named by the allow list itself');
});
