import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRoleFile, type RoleDefinition } from '../../../../src/core/rules/roles/schema';
import { definitionFromRole, roleToToml } from '../../../../src/core/rules/roles/toml';
import { fixture } from './helpers';

test('roleToToml writes the schema sections and reads back to the same definition', () => {
  const def: RoleDefinition = {
    name: 'auditor', inherits: 'reviewer', description: 'Quote "this"', shellPolicy: 'compress', sandbox: 'required', failClosed: true,
    tools: { allowed: ['ctx_read', '@search'], denied: [] },
    limits: { maxCostUsd: 2.5, maxShellInvocations: 0, blockAtPercent: 120 },
  };
  const text = roleToToml(def);
  assert.match(text, /^\[role\]\nname = "auditor"\ninherits = "reviewer"/);
  assert.match(text, /\nshell_policy = "compress"\nsandbox = "required"\n/);
  assert.match(text, /\[tools\]\nallowed = \[ "ctx_read", "@search" \]|\[tools\]\nallowed = \["ctx_read", ?"@search"\]/);
  assert.match(text, /\[limits\]\nmax_shell_invocations = 0\nmax_cost_usd = 2.5\nblock_at_percent = 120/);
  const parsed = parseRoleFile(text, '/x/auditor.toml');
  assert.deepEqual(parsed.problems, []);
  assert.deepEqual(parsed.definition, def);
});

test('keys a definition leaves out stay out, so inheritance still applies', () => {
  const text = roleToToml({ name: 'min', inherits: 'ops', tools: {}, limits: {} });
  assert.equal(text.includes('[tools]'), false);
  assert.equal(text.includes('[limits]'), false);
  assert.deepEqual(parseRoleFile(text, '/x/min.toml').definition, { name: 'min', inherits: 'ops', tools: {}, limits: {} });
});

test('a resolved built-in round-trips through definitionFromRole', () => {
  const reviewer = fixture().load().roles.get('reviewer')!;
  const def = definitionFromRole(reviewer);
  const parsed = parseRoleFile(roleToToml(def), '/x/reviewer.toml');
  assert.deepEqual(parsed.problems, []);
  assert.deepEqual(parsed.definition, def);
  assert.deepEqual(parsed.definition.tools, reviewer.tools);
  assert.deepEqual(parsed.definition.limits, reviewer.limits);
  assert.equal(parsed.definition.sandbox, reviewer.sandbox);
});
