/** The Harness's roles: protected paths, a project role, switching, and which role is active. */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { SECURITY_AUDITOR } from '../rules/roles/helpers';
import { denyReason, makeEnv } from './helpers';

describe('protected paths', () => {
  const cases: [string, string, Record<string, unknown>][] = [
    ['replace_string_in_file', 'checks.toml', { filePath: '.alfred/checks.toml', oldString: 'a', newString: 'b' }],
    ['create_file', 'a role file', { filePath: '.alfred/roles/x.toml', content: '[role]' }],
    ['Edit', 'checks.toml', { file_path: '.alfred/checks.toml', old_string: 'a', new_string: 'b' }],
    ['Write', 'a role file', { file_path: '.alfred/roles/x.toml', content: '[role]' }],
    ['apply_patch', 'a role file', { input: '*** Begin Patch\n*** Update File: .alfred/roles/x.toml\n*** End Patch' }],
  ];
  for (const [tool, what, toolInput] of cases) {
    it(`refuses ${tool} on ${what}, even for coder`, async () => {
      const env = makeEnv();
      const reason = denyReason((await env.hook('PreToolUse', { tool_name: tool, tool_input: toolInput })).json);
      assert.ok(reason, `${tool} refused`);
      assert.match(reason, /may not write \.alfred\/(checks\.toml|roles\/x\.toml)/);
      const [violation] = env.harness.events({ types: ['PolicyViolation'] }).events;
      assert.equal(violation?.code, 'protected-path');
    });
  }

  it('refuses an absolute path to the checks file too, and lets other files be edited', async () => {
    const env = makeEnv();
    const abs = path.join(env.ws, '.alfred', 'checks.toml');
    assert.ok(denyReason((await env.hook('PreToolUse', { tool_name: 'Edit', tool_input: { file_path: abs } })).json));
    assert.equal((await env.hook('PreToolUse', { tool_name: 'Edit', tool_input: { file_path: 'src/a.ts' } })).stdout, '{}');
  });

  it('refuses paths matched by the protectedGlobs option', async () => {
    const env = makeEnv({ protectedGlobs: () => ['tests/**'] });
    const reason = denyReason((await env.hook('PreToolUse', { tool_name: 'editFiles', tool_input: { filePath: 'tests/a.test.ts' } })).json);
    assert.match(reason ?? '', /matches the protected path "tests\/\*\*"/);
  });
});

describe('the seed role security-auditor', () => {
  it('loads from .alfred/roles and governs: reads allowed, edits and shell refused', async () => {
    const env = makeEnv({ env: { ALFRED_ROLE: 'security-auditor' }, files: { '.alfred/roles/security-auditor.toml': SECURITY_AUDITOR } });
    const active = env.harness.activeRole();
    assert.equal(active.role.name, 'security-auditor');
    assert.equal(active.role.source, 'project');
    assert.equal(active.problem, undefined);
    assert.equal(env.harness.budget().line, 'Budget[security-auditor]: tokens 0/100000 (0%) | shell 0/0 (0%) | cost $0.00/$2.00 (0%) → OK');
    for (const tool of ['ctx_read', 'ctx_search', 'ctx_session']) {
      assert.equal((await env.hook('PreToolUse', { tool_name: tool, tool_input: { path: 'a.ts' } })).stdout, '{}', tool);
    }
    for (const tool of ['ctx_edit', 'ctx_shell', 'run_in_terminal', 'replace_string_in_file', 'read_file']) {
      const reason = denyReason((await env.hook('PreToolUse', { tool_name: tool, tool_input: { filePath: 'a.ts' } })).json);
      assert.match(reason ?? '', /role security-auditor/, tool);
    }
    assert.equal(env.harness.events({ types: ['PolicyViolation'] }).events.length, 5);
  });
});

describe('switching roles', () => {
  it('switchRole starts a new session with a RoleChanged event', async () => {
    const env = makeEnv();
    await env.hook('PreToolUse', { tool_name: 'run_in_terminal', tool_input: { command: 'ls' } });
    const before = env.harness.budget();
    assert.equal(before.status.dimensions.shell.used, 1);
    const seen: string[] = [];
    env.harness.bus.on((e) => seen.push(e.type));
    const role = await env.harness.switchRole('reviewer', 'test');
    assert.equal(role.name, 'reviewer');
    const after = env.harness.budget();
    assert.equal(after.status.role, 'reviewer');
    assert.equal(after.status.dimensions.shell.used, 0);
    assert.ok(after.session && after.session !== before.session, 'a new session');
    const [changed] = env.harness.events({ types: ['RoleChanged'] }).events;
    assert.equal(changed?.from, 'coder');
    assert.equal(changed?.to, 'reviewer');
    assert.equal(changed?.previousSession, before.session);
    assert.equal(changed?.session, after.session);
    assert.deepEqual(seen, ['RoleChanged']);
    assert.equal(env.harness.activeRole().from, 'runtime');
  });

  it('an unknown role is an error listing the available roles, and changes nothing', async () => {
    const env = makeEnv({ files: { '.alfred/roles/security-auditor.toml': SECURITY_AUDITOR } });
    await assert.rejects(env.harness.switchRole('nope', 'test'), (err: Error) => {
      assert.match(err.message, /^Unknown role "nope"\./);
      assert.match(err.message, /Available roles: admin, coder, debugger, ops, reviewer, security-auditor\.$/);
      return true;
    });
    assert.equal(env.harness.activeRole().role.name, 'coder');
  });

  it('an unknown active role falls back to coder with a problem', () => {
    const env = makeEnv({ env: { ALFRED_ROLE: 'ghost' } });
    const active = env.harness.activeRole();
    assert.equal(active.role.name, 'coder');
    assert.equal(active.from, 'default');
    assert.match(active.problem ?? '', /Unknown role "ghost".*Available roles: admin, coder/);
  });
});

describe('which role is active', () => {
  it('the setting, when nothing else names a role', () => {
    const env = makeEnv({ roleSetting: 'debugger' });
    assert.deepEqual([env.harness.activeRole().role.name, env.harness.activeRole().from], ['debugger', 'setting']);
  });

  it('ALFRED_ROLE beats the setting', () => {
    const env = makeEnv({ roleSetting: 'debugger', env: { ALFRED_ROLE: 'ops' } });
    assert.deepEqual([env.harness.activeRole().role.name, env.harness.activeRole().from], ['ops', 'ALFRED_ROLE']);
  });

  it('a runtime switch beats ALFRED_ROLE and the setting', async () => {
    const env = makeEnv({ roleSetting: 'debugger', env: { ALFRED_ROLE: 'ops' } });
    await env.harness.switchRole('reviewer', 'test');
    assert.deepEqual([env.harness.activeRole().role.name, env.harness.activeRole().from], ['reviewer', 'runtime']);
    const answer = await env.hook('PreToolUse', { tool_name: 'run_in_terminal', tool_input: { command: 'ls' } });
    assert.match(denyReason(answer.json) ?? '', /^Alfred \(role reviewer\)/);
  });

  it('an untrusted workspace ignores the setting', () => {
    const env = makeEnv({ roleSetting: 'debugger', trusted: false });
    assert.equal(env.harness.activeRole().role.name, 'coder');
  });
});
