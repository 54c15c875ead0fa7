import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkDraft, draftFromDefinition, emptyDraft, type DraftContext, type RoleDraft } from '../../../../src/core/rules/roles/draft';
import { parseRoleFile } from '../../../../src/core/rules/roles/schema';
import type { RoleSource } from '../../../../src/core/rules/roles/types';

const role = (name: string, source: RoleSource, inherits?: string) => [name, { name, source, path: `/${source}/${name}.toml`, ...(inherits ? { inherits } : {}) }] as const;
const ctx = (over: Partial<DraftContext> = {}): DraftContext => ({
  mode: 'new',
  folders: { project: '/ws/.alfred/roles', user: '/home/u/.alfred/roles' },
  roles: new Map([role('coder', 'builtin'), role('reviewer', 'builtin'), role('auditor', 'project', 'reviewer'), role('strict', 'project', 'auditor')]),
  exists: () => false,
  ...over,
});
const draft = (over: Partial<RoleDraft>): RoleDraft => ({ ...emptyDraft(), ...over });
const keys = (c: ReturnType<typeof checkDraft>) => c.problems.filter((p) => p.severity === 'error').map((p) => p.key);

test('a valid draft saves to .alfred/roles/NAME.toml as TOML the loader reads back', () => {
  const d = draft({ name: 'sec', inherits: 'reviewer', description: 'Security review', shellPolicy: 'deny', allowed: ['ctx_read', '@search'], denied: ['@edit'], limits: { ...emptyDraft().limits, max_cost_usd: '2.5', max_shell_invocations: '0' } });
  const c = checkDraft(d, ctx());
  assert.deepEqual(c.problems, []);
  assert.equal(c.ok, true);
  assert.equal(c.path, '/ws/.alfred/roles/sec.toml');
  const back = parseRoleFile(c.toml, c.path);
  assert.deepEqual(back.problems, []);
  assert.deepEqual(back.definition, {
    name: 'sec', inherits: 'reviewer', description: 'Security review', shellPolicy: 'deny',
    tools: { allowed: ['ctx_read', '@search'], denied: ['@edit'] }, limits: { maxCostUsd: 2.5, maxShellInvocations: 0 },
  });
  assert.equal(checkDraft({ ...d, location: 'user' }, ctx()).path, '/home/u/.alfred/roles/sec.toml');
});

test('the loader\'s own validation: names, categories, limits, warn above block — each with its key', () => {
  const c = checkDraft(draft({ name: 'bad name', allowed: ['@nope', ''], limits: { ...emptyDraft().limits, max_context_tokens: '1.5', max_cost_usd: 'lots', warn_at_percent: '90', block_at_percent: '50' } }), ctx());
  assert.equal(c.ok, false);
  assert.deepEqual(keys(c).sort(), ['limits.max_context_tokens', 'limits.max_cost_usd', 'limits.warn_at_percent', 'role.name', 'tools.allowed[0]', 'tools.allowed[1]'].sort());
  assert.match(c.problems.find((p) => p.key === 'limits.max_cost_usd')!.message, /must be a number, got "lots"/);
  assert.deepEqual(keys(checkDraft(draft({ name: '' }), ctx())), ['role.name']);
});

test('a bad sandbox value in a draft is the loader\'s problem, keyed role.sandbox', () => {
  const c = checkDraft(draft({ name: 'x', sandbox: 'sometimes' as never }), ctx());
  assert.deepEqual(keys(c), ['role.sandbox']);
});

test('allowed = [] is saved as written, with the loader\'s warning', () => {
  const c = checkDraft(draft({ name: 'none', allowed: [] }), ctx());
  assert.equal(c.ok, true);
  assert.match(c.toml, /allowed = \[\s*\]/);
  assert.deepEqual(c.problems.map((p) => [p.key, p.severity]), [['tools.allowed', 'warning']]);
});

test('built-in names cannot be overwritten, whatever their case', () => {
  assert.match(checkDraft(draft({ name: 'coder' }), ctx()).problems[0]!.message, /built-in role and cannot be overwritten/);
  assert.deepEqual(keys(checkDraft(draft({ name: 'Reviewer' }), ctx())), ['role.name']);
});

test('parents must exist and must not lead back to the role', () => {
  assert.match(checkDraft(draft({ name: 'x', inherits: 'ghost' }), ctx()).problems[0]!.message, /unknown role "ghost"; known roles: auditor, coder, reviewer, strict/);
  assert.match(checkDraft(draft({ name: 'x', inherits: 'x' }), ctx()).problems[0]!.message, /itself/);
  const editAuditor = ctx({ mode: 'edit', original: { name: 'auditor', path: '/project/auditor.toml', source: 'project' } });
  assert.match(checkDraft(draft({ name: 'auditor', inherits: 'strict' }), editAuditor).problems[0]!.message, /"strict" already inherits from "auditor": that would be a cycle/);
});

test('a new role never replaces an existing file; editing keeps the file, renaming replaces it', () => {
  assert.match(checkDraft(draft({ name: 'taken' }), ctx({ exists: (f) => f.endsWith('taken.toml') })).problems[0]!.message, /already exists; edit that role instead/);
  const edit = ctx({ mode: 'edit', original: { name: 'auditor', path: '/project/auditor.toml', source: 'project' }, exists: () => true });
  const same = checkDraft(draft({ name: 'auditor', inherits: 'reviewer' }), edit);
  assert.equal(same.ok, true);
  assert.equal(same.path, '/project/auditor.toml');
  assert.equal(same.replaces, undefined);
  const renamed = checkDraft(draft({ name: 'auditor2', inherits: 'reviewer' }), { ...edit, exists: () => false });
  assert.equal(renamed.path, '/ws/.alfred/roles/auditor2.toml');
  assert.equal(renamed.replaces, '/project/auditor.toml');
});

test('a role file\'s own keys fill the form, and fail_closed and sandbox survive a save the form does not show them in', () => {
  const parsed = parseRoleFile('[role]\nname = "ops2"\ninherits = "coder"\nsandbox = "required"\nfail_closed = true\n[limits]\nmax_cost_usd = 1.0\n', '/p/ops2.toml');
  const d = draftFromDefinition(parsed.definition, 'project');
  assert.equal(d.limits.max_cost_usd, '1');
  assert.equal(d.limits.max_context_tokens, '');
  assert.equal(d.allowed, null);
  const c = checkDraft(d, ctx({ mode: 'edit', original: { name: 'ops2', path: '/p/ops2.toml', source: 'project' } }));
  assert.match(c.toml, /fail_closed = true/);
  assert.match(c.toml, /sandbox = "required"/);
  assert.equal(d.sandbox, 'required');
  assert.deepEqual(parseRoleFile(c.toml, '/p/ops2.toml').definition, parsed.definition);
});
