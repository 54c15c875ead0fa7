import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { listRoleFiles, loadRoles, roleFolders } from '../../../../src/core/rules/roles/loader';
import { errorsFor, fixture, roleToml, SECURITY_AUDITOR } from './helpers';

test('the security-auditor example inherits reviewer and its own keys win', () => {
  const f = fixture();
  const file = f.write('ws/.alfred/roles/security-auditor.toml', SECURITY_AUDITOR);
  const loaded = f.load();
  assert.deepEqual(loaded.problems, []);
  const role = loaded.roles.get('security-auditor');
  assert.deepEqual(role, {
    name: 'security-auditor', source: 'project', path: file, inherits: 'reviewer',
    description: 'Security-focused code review', shellPolicy: 'deny', sandbox: 'auto', failClosed: false,
    allowWrite: [], network: { allow: [], deny: [] },
    tools: { allowed: ['ctx_read', 'ctx_search', 'ctx_tree', 'ctx_review', 'ctx_session'], denied: ['ctx_edit', 'ctx_shell', 'ctx_execute'] },
    limits: { maxContextTokens: 100000, maxShellInvocations: 0, maxCostUsd: 2, warnAtPercent: 80, blockAtPercent: 100 },
  });
});

test('limits are inherited key by key', () => {
  const f = fixture();
  f.write('ws/.alfred/roles/cheap.toml', roleToml('cheap', 'inherits = "debugger"\n[limits]\nmax_cost_usd = 1.5\nwarn_at_percent = 50'));
  const role = f.load().roles.get('cheap')!;
  assert.deepEqual(role.limits, { maxContextTokens: 150000, maxShellInvocations: 200, maxCostUsd: 1.5, warnAtPercent: 50, blockAtPercent: 100 });
  assert.equal(role.shellPolicy, 'track');
  assert.equal(role.description, f.load().roles.get('debugger')!.description);
});

test('a tools list the child sets replaces the parent list; the other list is inherited', () => {
  const f = fixture();
  f.write('ws/.alfred/roles/narrow.toml', roleToml('narrow', 'inherits = "reviewer"\n[tools]\ndenied = ["ctx_tree"]'));
  f.write('ws/.alfred/roles/grand.toml', roleToml('grand', 'inherits = "narrow"\nshell_policy = "compress"\n[tools]\nallowed = ["ctx_read"]'));
  const loaded = f.load();
  assert.deepEqual(loaded.roles.get('narrow')!.tools, { allowed: ['@read', '@search', 'ctx_review', 'ctx_session'], denied: ['ctx_tree'] });
  assert.deepEqual(loaded.roles.get('grand')!.tools, { allowed: ['ctx_read'], denied: ['ctx_tree'] });
  assert.equal(loaded.roles.get('narrow')!.shellPolicy, 'deny');
  assert.equal(loaded.roles.get('grand')!.shellPolicy, 'compress');
  assert.equal(loaded.roles.get('grand')!.limits.maxContextTokens, 150000);
});

test('a role with no parent gets the defaults and the coder limits', () => {
  const f = fixture();
  f.write('ws/.alfred/roles/bare.toml', roleToml('bare', 'fail_closed = true'));
  const role = f.load().roles.get('bare')!;
  assert.deepEqual(role.tools, { denied: [] });
  assert.equal(role.shellPolicy, 'track');
  assert.equal(role.description, '');
  assert.equal(role.failClosed, true);
  assert.equal(role.sandbox, 'auto');
  assert.deepEqual(role.limits, { maxContextTokens: 200000, maxShellInvocations: 100, maxCostUsd: 5, warnAtPercent: 80, blockAtPercent: 100 });
});

test('sandbox is inherited like the other keys; a child may loosen or tighten it', () => {
  const f = fixture();
  f.write('ws/.alfred/roles/strict.toml', roleToml('strict', 'inherits = "coder"\nsandbox = "required"'));
  f.write('ws/.alfred/roles/child.toml', roleToml('child', 'inherits = "strict"\nshell_policy = "compress"'));
  f.write('ws/.alfred/roles/loose.toml', roleToml('loose', 'inherits = "strict"\nsandbox = "off"'));
  const loaded = f.load();
  assert.deepEqual(loaded.problems, []);
  assert.equal(loaded.roles.get('strict')!.sandbox, 'required');
  assert.equal(loaded.roles.get('child')!.sandbox, 'required');
  assert.equal(loaded.roles.get('loose')!.sandbox, 'off');
  assert.equal(loaded.roles.get('coder')!.sandbox, 'auto');
});

test('a bad sandbox value keeps the role from loading, with the file path and key', () => {
  const f = fixture();
  const file = f.write('ws/.alfred/roles/odd.toml', roleToml('odd', 'sandbox = "always"'));
  const loaded = f.load();
  assert.equal(loaded.roles.has('odd'), false);
  assert.deepEqual(errorsFor(loaded, 'odd').map((p) => [p.path, p.key]), [[file, 'role.sandbox']]);
});

test('inheritance cycles are reported for every member; the other roles still load', () => {
  const f = fixture();
  const a = f.write('ws/.alfred/roles/a.toml', roleToml('a', 'inherits = "b"'));
  const b = f.write('ws/.alfred/roles/b.toml', roleToml('b', 'inherits = "a"'));
  const self = f.write('ws/.alfred/roles/self.toml', roleToml('self', 'inherits = "self"'));
  f.write('ws/.alfred/roles/c.toml', roleToml('c', 'inherits = "a"'));
  f.write('ws/.alfred/roles/fine.toml', roleToml('fine', 'inherits = "ops"'));
  const loaded = f.load();
  for (const name of ['a', 'b', 'self', 'c']) assert.equal(loaded.roles.has(name), false, name);
  assert.ok(loaded.roles.has('fine'));
  assert.equal(loaded.roles.size, 6);
  const cycle = (name: string) => errorsFor(loaded, name).filter((p) => /cycle/.test(p.message));
  assert.deepEqual(cycle('a').map((p) => [p.path, p.key, p.message]), [[a, 'role.inherits', 'inheritance cycle: a → b → a']]);
  assert.deepEqual(cycle('b').map((p) => [p.path, p.key, p.message]), [[b, 'role.inherits', 'inheritance cycle: b → a → b']]);
  assert.deepEqual(cycle('self').map((p) => [p.path, p.key]), [[self, 'role.inherits']]);
  assert.equal(errorsFor(loaded, 'a').length, 1, 'a member of a cycle gets one problem');
  assert.match(errorsFor(loaded, 'c')[0].message, /parent role "a" failed to load/);
  assert.equal(errorsFor(loaded, 'c')[0].key, 'role.inherits');
});

test('an unknown parent, or a parent whose file is broken, is reported at role.inherits', () => {
  const f = fixture();
  const orphan = f.write('ws/.alfred/roles/orphan.toml', roleToml('orphan', 'inherits = "ghost"'));
  f.write('ws/.alfred/roles/broken.toml', roleToml('broken', 'shell_policy = 3'));
  f.write('ws/.alfred/roles/kid.toml', roleToml('kid', 'inherits = "broken"'));
  const loaded = f.load();
  assert.deepEqual(errorsFor(loaded, 'orphan').map((p) => [p.path, p.key]), [[orphan, 'role.inherits']]);
  assert.match(errorsFor(loaded, 'orphan')[0].message, /unknown parent role "ghost".*coder/);
  assert.deepEqual(errorsFor(loaded, 'broken').map((p) => p.key), ['role.shell_policy']);
  assert.match(errorsFor(loaded, 'kid')[0].message, /"broken" failed to load/);
  assert.deepEqual([...loaded.roles.keys()], ['coder', 'reviewer', 'debugger', 'ops', 'admin']);
});

test('inherits may name a role from another folder', () => {
  const f = fixture();
  f.write('home/.lean-ctx/roles/base.toml', roleToml('base', '[limits]\nmax_shell_invocations = 7'));
  f.write('ws/.alfred/roles/derived.toml', roleToml('derived', 'inherits = "base"'));
  const loaded = f.load();
  assert.equal(loaded.roles.get('derived')!.limits.maxShellInvocations, 7);
  assert.equal(loaded.roles.get('base')!.source, 'user-lean-ctx');
});

test('warn above block after inheritance is an error', () => {
  const f = fixture();
  f.write('ws/.alfred/roles/w.toml', roleToml('w', 'inherits = "coder"\n[limits]\nwarn_at_percent = 150'));
  const loaded = f.load();
  assert.equal(loaded.roles.has('w'), false);
  assert.equal(errorsFor(loaded, 'w')[0].key, 'limits.warn_at_percent');
});

test('project and user files cannot redefine a built-in role, whatever the case', () => {
  const f = fixture();
  const p = f.write('ws/.alfred/roles/reviewer.toml', roleToml('reviewer', 'shell_policy = "track"\n[limits]\nmax_shell_invocations = 999'));
  const u = f.write('home/.alfred/roles/Admin.toml', roleToml('Admin'));
  const loaded = f.load();
  const reviewer = loaded.roles.get('reviewer')!;
  assert.equal(reviewer.source, 'builtin');
  assert.equal(reviewer.shellPolicy, 'deny');
  assert.equal(reviewer.limits.maxShellInvocations, 0);
  assert.equal(loaded.roles.has('Admin'), false);
  assert.deepEqual(errorsFor(loaded, 'reviewer').map((x) => [x.path, x.key]), [[p, 'role.name']]);
  assert.deepEqual(errorsFor(loaded, 'Admin').map((x) => [x.path, x.key]), [[u, 'role.name']]);
  assert.match(errorsFor(loaded, 'reviewer')[0].message, /built-in/);
});

test('lookup order: .alfred, then .lean-ctx, then ~/.alfred, then ~/.lean-ctx', () => {
  const f = fixture();
  const files = [
    f.write('ws/.alfred/roles/shared.toml', roleToml('shared', 'description = "project alfred"')),
    f.write('ws/.lean-ctx/roles/shared.toml', roleToml('shared', 'description = "project lean-ctx"')),
    f.write('home/.alfred/roles/shared.toml', roleToml('shared', 'description = "user alfred"')),
    f.write('home/.lean-ctx/roles/shared.toml', roleToml('shared', 'description = "user lean-ctx"')),
  ];
  const expected = [['project alfred', 'project'], ['project lean-ctx', 'project-lean-ctx'], ['user alfred', 'user'], ['user lean-ctx', 'user-lean-ctx']];
  for (let i = 0; i < files.length; i++) {
    const loaded = f.load();
    assert.deepEqual(loaded.problems, []);
    const role = loaded.roles.get('shared')!;
    assert.deepEqual([role.description, role.source, role.path], [...expected[i], files[i]]);
    fs.rmSync(files[i]);
  }
  assert.equal(f.load().roles.has('shared'), false);
});

test('roles in folders above the workspace are not read: an agent could have written them there', () => {
  const f = fixture();
  const nested = path.join(f.ws, 'a', 'b');
  fs.mkdirSync(nested, { recursive: true });
  f.write('home/.alfred/roles/strict.toml', roleToml('strict', 'description = "the user\'s"'));
  // Above the workspace: a role of the user's name, and one a workspace role inherits from.
  f.write('ws/a/.alfred/roles/strict.toml', roleToml('strict', 'description = "planted"'));
  f.write('ws/.lean-ctx/roles/base.toml', roleToml('base', 'description = "planted base"'));
  f.write('ws/a/b/.alfred/roles/child.toml', '[role]\nname = "child"\ninherits = "base"\n');
  f.write('ws/a/b/.lean-ctx/roles/own.toml', roleToml('own', 'description = "lean-ctx b"'));
  const loaded = f.load({ workspaceFolder: nested });
  assert.equal(loaded.roles.get('strict')!.description, 'the user\'s');
  assert.equal(loaded.roles.get('own')!.description, 'lean-ctx b');
  assert.equal(loaded.roles.has('base'), false);
  assert.equal(loaded.roles.has('child'), false, 'its parent is nowhere Alfred reads');
  assert.match(loaded.problems.find((p) => p.role === 'child')!.message, /base/);
});

test('roleFolders lists every folder in lookup order: the workspace\'s own, the user\'s, the built-ins', () => {
  const folders = roleFolders({ workspaceFolder: '/h/me/proj', homeDir: '/h/me', builtinDir: '/ext/roles' });
  assert.deepEqual(folders.map((x) => `${x.source} ${x.dir}`), [
    'project /h/me/proj/.alfred/roles', 'project-lean-ctx /h/me/proj/.lean-ctx/roles',
    'user /h/me/.alfred/roles', 'user-lean-ctx /h/me/.lean-ctx/roles', 'builtin /ext/roles',
  ]);
  // A workspace opened on the home folder: its role folders are the user's, listed once.
  assert.deepEqual(roleFolders({ workspaceFolder: '/h/me', homeDir: '/h/me', builtinDir: '/ext/roles' }).map((x) => x.source), ['user', 'user-lean-ctx', 'builtin']);
});

test('an untrusted workspace ignores project role files and lists each with the reason', () => {
  const f = fixture();
  const p1 = f.write('ws/.alfred/roles/loose.toml', roleToml('loose'));
  const p2 = f.write('ws/.lean-ctx/roles/shared.toml', roleToml('shared', 'description = "project"'));
  f.write('home/.alfred/roles/shared.toml', roleToml('shared', 'description = "user"'));
  const loaded = f.load({ trusted: false });
  assert.equal(loaded.roles.has('loose'), false);
  assert.equal(loaded.roles.get('shared')!.description, 'user');
  const trust = loaded.problems.filter((p) => /Workspace Trust/.test(p.message));
  assert.deepEqual(trust.map((p) => [p.path, p.severity]).sort(), [[p1, 'error'], [p2, 'error']]);
  assert.ok(f.load({ trusted: true }).roles.has('loose'));
});

test('a file with a syntax error is reported while the other roles load', () => {
  const f = fixture();
  const bad = f.write('ws/.alfred/roles/bad.toml', '[role\nname = "bad"\n');
  f.write('ws/.alfred/roles/good.toml', roleToml('good'));
  f.write('home/.alfred/roles/bad.toml', roleToml('bad'));
  const loaded = f.load();
  assert.ok(loaded.roles.has('good'));
  assert.equal(loaded.roles.size, 6);
  // The broken project file still shadows the user file of the same name: no silent swap.
  assert.equal(loaded.roles.has('bad'), false);
  assert.deepEqual(loaded.problems.map((p) => [p.path, p.key, p.severity]), [[bad, '', 'error']]);
  assert.match(loaded.problems[0].message, /line 1, column \d+/);
});

test('allowed = [] loads as no tool, with a warning', () => {
  const f = fixture();
  f.write('home/.lean-ctx/roles/none.toml', roleToml('none', 'inherits = "coder"\n[tools]\nallowed = []'));
  const loaded = f.load();
  assert.deepEqual(loaded.roles.get('none')!.tools, { allowed: [], denied: [] });
  assert.deepEqual(loaded.problems.map((p) => [p.role, p.key, p.severity]), [['none', 'tools.allowed', 'warning']]);
});

test('a broken built-in folder does not take the loader down', () => {
  const f = fixture();
  f.write('ws/.alfred/roles/x.toml', roleToml('x'));
  f.write('ws/.alfred/roles/coder.toml', roleToml('coder'));
  const loaded = loadRoles({ workspaceFolder: f.ws, homeDir: f.home, builtinDir: path.join(f.root, 'missing'), trusted: true });
  assert.deepEqual([...loaded.roles.keys()], ['x']);
  // Without the built-in coder, a role with no parent still gets the coder's documented limits.
  assert.deepEqual(loaded.roles.get('x')!.limits, { maxContextTokens: 200000, maxShellInvocations: 100, maxCostUsd: 5, warnAtPercent: 80, blockAtPercent: 100 });
  assert.equal(errorsFor(loaded, 'coder')[0].key, 'role.name');
});

test('role folders that are missing, a file, or under a file list nothing; a symlinked folder lists its roles', () => {
  const f = fixture();
  const dir = path.join(f.root, 'roles-here');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'b.toml'), roleToml('b', ''));
  fs.writeFileSync(path.join(dir, 'a.TOML'), roleToml('a', ''));
  fs.writeFileSync(path.join(dir, 'notes.md'), 'not a role');
  fs.symlinkSync(dir, path.join(f.root, 'linked'));
  fs.writeFileSync(path.join(f.root, 'a-file'), '');
  assert.deepEqual(listRoleFiles(dir), [path.join(dir, 'a.TOML'), path.join(dir, 'b.toml')]);
  assert.deepEqual(listRoleFiles(path.join(f.root, 'linked')), [path.join(f.root, 'linked', 'a.TOML'), path.join(f.root, 'linked', 'b.toml')]);
  assert.deepEqual(listRoleFiles(path.join(f.root, 'missing')), []);
  assert.deepEqual(listRoleFiles(path.join(f.root, 'a-file')), []);
  assert.deepEqual(listRoleFiles(path.join(f.root, 'a-file', 'roles')), []);
});

test('[sandbox]: allow_write and the network lists are inherited list by list; a role without a parent starts from the coder\'s network', () => {
  const f = fixture();
  f.write('ws/.alfred/roles/fetcher.toml', roleToml('fetcher', 'inherits = "reviewer"\n[sandbox]\nallow_write = ["~/notes"]\n[sandbox.network]\nallow = ["example.org"]'));
  f.write('ws/.alfred/roles/child.toml', roleToml('child', 'inherits = "fetcher"\n[sandbox.network]\ndeny = ["bad.example.org"]'));
  f.write('ws/.alfred/roles/orphan.toml', roleToml('orphan', ''));
  const loaded = f.load();
  assert.deepEqual(loaded.problems, []);
  const child = loaded.roles.get('child')!;
  assert.deepEqual([child.allowWrite, child.network], [['~/notes'], { allow: ['example.org'], deny: ['bad.example.org'] }]);
  assert.deepEqual(loaded.roles.get('reviewer')!.network, { allow: [], deny: [] });
  assert.deepEqual(loaded.roles.get('orphan')!.network, loaded.roles.get('coder')!.network);
  assert.ok(loaded.roles.get('coder')!.network!.allow.includes('registry.npmjs.org'));
  assert.deepEqual(loaded.roles.get('admin')!.network, { allow: ['*'], deny: [] });
});
