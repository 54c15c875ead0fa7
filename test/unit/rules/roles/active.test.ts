import assert from 'node:assert/strict';
import { test } from 'node:test';
import { requireRole, resolveActiveRoleName } from '../../../../src/core/rules/roles/active';
import { errorsFor, fixture, roleToml } from './helpers';

test('active role precedence: runtime, ALFRED_ROLE, LEAN_CTX_ROLE, setting, coder', () => {
  const env = { ALFRED_ROLE: 'ops', LEAN_CTX_ROLE: 'debugger' };
  assert.deepEqual(resolveActiveRoleName({ runtime: 'admin', env, setting: 'reviewer', trusted: true }), { name: 'admin', from: 'runtime' });
  assert.deepEqual(resolveActiveRoleName({ env, setting: 'reviewer', trusted: true }), { name: 'ops', from: 'ALFRED_ROLE' });
  assert.deepEqual(resolveActiveRoleName({ env: { LEAN_CTX_ROLE: 'debugger' }, setting: 'reviewer', trusted: true }), { name: 'debugger', from: 'LEAN_CTX_ROLE' });
  assert.deepEqual(resolveActiveRoleName({ env: {}, setting: 'reviewer', trusted: true }), { name: 'reviewer', from: 'setting' });
  assert.deepEqual(resolveActiveRoleName({ env: {}, trusted: true }), { name: 'coder', from: 'default' });
});

test('the setting is ignored in an untrusted workspace; blank values count as unset', () => {
  assert.deepEqual(resolveActiveRoleName({ env: {}, setting: 'admin', trusted: false }), { name: 'coder', from: 'default' });
  assert.deepEqual(resolveActiveRoleName({ env: { LEAN_CTX_ROLE: 'ops' }, setting: 'admin', trusted: false }), { name: 'ops', from: 'LEAN_CTX_ROLE' });
  assert.deepEqual(resolveActiveRoleName({ runtime: ' ', env: { ALFRED_ROLE: '' }, setting: ' reviewer ', trusted: true }), { name: 'reviewer', from: 'setting' });
});

test('requireRole returns the role or throws naming it and listing the roles', () => {
  const f = fixture();
  const loaded = f.load();
  assert.equal(requireRole(loaded.roles, 'reviewer').name, 'reviewer');
  assert.equal(requireRole(loaded, 'ops').limits.maxShellInvocations, 300);
  assert.throws(() => requireRole(loaded.roles, 'ghost'), (err: Error) => {
    assert.match(err.message, /"ghost"/);
    assert.match(err.message, /admin, coder, debugger, ops, reviewer/);
    return true;
  });
});

test('requireRole says why a role that exists on disk did not load', () => {
  const f = fixture();
  f.write('ws/.alfred/roles/half.toml', roleToml('half', '[limits]\nmax_cost_usd = "a lot"'));
  const loaded = f.load();
  assert.equal(errorsFor(loaded, 'half').length, 1);
  assert.throws(() => requireRole(loaded, 'half'), /Unknown role "half"\. It did not load: .*limits\.max_cost_usd.*Available roles: admin, coder/);
});
