import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadRoles } from '../../../../src/core/rules/roles/loader';
import { BUILTIN_DIR, fixture } from './helpers';

const EXPECTED = {
  coder: { allowed: undefined, denied: [], shell: 'track', tokens: 200_000, calls: 100, usd: 5 },
  reviewer: { allowed: ['@read', '@search', 'ctx_review', 'ctx_session'], denied: ['@edit', '@shell'], shell: 'deny', tokens: 150_000, calls: 0, usd: 3 },
  debugger: { allowed: undefined, denied: [], shell: 'track', tokens: 150_000, calls: 200, usd: 5 },
  ops: { allowed: undefined, denied: ['@edit'], shell: 'track', tokens: 100_000, calls: 300, usd: 3 },
  admin: { allowed: undefined, denied: [], shell: 'track', tokens: 500_000, calls: 500, usd: 50 },
} as const;

test('the five built-in roles load with the numbers of the table of built-in roles (docs/roles-and-budgets.md)', () => {
  const f = fixture();
  const loaded = f.load();
  assert.deepEqual(loaded.problems, []);
  assert.deepEqual([...loaded.roles.keys()], ['coder', 'reviewer', 'debugger', 'ops', 'admin']);
  for (const [name, e] of Object.entries(EXPECTED)) {
    const role = loaded.roles.get(name);
    assert.ok(role, name);
    assert.equal(role.source, 'builtin');
    assert.deepEqual(role.tools, e.allowed === undefined ? { denied: e.denied } : { allowed: e.allowed, denied: e.denied }, name);
    assert.equal(role.shellPolicy, e.shell, name);
    assert.deepEqual(role.limits, { maxContextTokens: e.tokens, maxShellInvocations: e.calls, maxCostUsd: e.usd, warnAtPercent: 80, blockAtPercent: 100 }, name);
    assert.ok(role.description.length > 0, `${name} has a description`);
    assert.equal(role.failClosed, false);
    assert.equal(role.sandbox, 'auto', `${name} sandboxes shell where it can`);
    assert.equal(role.inherits, undefined);
  }
});

test('built-ins load without a workspace folder', () => {
  const f = fixture();
  const loaded = loadRoles({ homeDir: f.home, builtinDir: BUILTIN_DIR, trusted: true });
  assert.equal(loaded.roles.size, 5);
  assert.deepEqual(loaded.problems, []);
});
