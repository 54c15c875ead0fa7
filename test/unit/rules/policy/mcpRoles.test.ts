import assert from 'node:assert/strict';
import { test } from 'node:test';
import { moreAuthority } from '../../../../src/core/rules/policy/authority';
import { checkDraft, draftFromDefinition, emptyDraft } from '../../../../src/core/rules/roles/draft';
import { parseRoleFile } from '../../../../src/core/rules/roles/schema';
import { roleToToml } from '../../../../src/core/rules/roles/toml';
import type { Role } from '../../../../src/core/rules/roles/types';
import { fixture } from '../roles/helpers';

const MCP_ROLE = `[role]
name = "careful"
inherits = "coder"
[tools]
allowed = ["@read", "@mcp:github", "@mcp:my-server"]
denied = ["@mcp:Scraper"]
[mcp]
unaudited = "ask"
dead = "deny"
`;

test('a role file with @mcp:SERVER patterns and [mcp] loads, and its children inherit [mcp] key by key', () => {
  const f = fixture();
  f.write('ws/.alfred/roles/careful.toml', MCP_ROLE);
  f.write('ws/.alfred/roles/looser.toml', '[role]\nname = "looser"\ninherits = "careful"\n[mcp]\ndead = "ask"\n');
  const loaded = f.load();
  assert.deepEqual(loaded.problems, []);
  const careful = loaded.roles.get('careful')!;
  assert.deepEqual(careful.tools, { allowed: ['@read', '@mcp:github', '@mcp:my-server'], denied: ['@mcp:Scraper'] });
  assert.deepEqual(careful.mcp, { unaudited: 'ask', dead: 'deny' });
  assert.deepEqual(loaded.roles.get('looser')!.mcp, { unaudited: 'ask', dead: 'ask' });
  assert.equal(loaded.roles.get('coder')!.mcp, undefined, 'a role without [mcp] carries none: allow');
});

test('bad [mcp] values, unknown [mcp] keys and a serverless @mcp: are reported with their key', () => {
  const parsed = parseRoleFile('[tools]\ndenied = ["@mcp:", "@mcp:ok"]\n[mcp]\nunaudited = "block"\nstale = "ask"\ndead = true\n', '/x/bad.toml');
  assert.equal(parsed.ok, false);
  assert.deepEqual(parsed.problems.map((p) => [p.key, p.message]), [
    ['tools.denied[0]', '"@mcp:" names no MCP server; write @mcp:SERVER, e.g. @mcp:github'],
    ['mcp.stale', 'unknown key "stale" in [mcp] (expected unaudited, dead)'],
    ['mcp.unaudited', 'must be one of allow, ask, deny, got "block"'],
    ['mcp.dead', 'must be one of allow, ask, deny, got true'],
  ]);
});

test('the role editor accepts @mcp:SERVER and keeps [mcp] of the file it edits', () => {
  const def = parseRoleFile(MCP_ROLE, '/ws/.alfred/roles/careful.toml').definition;
  const draft = draftFromDefinition(def, 'project');
  const check = checkDraft(draft, {
    mode: 'edit', folders: { project: '/ws/.alfred/roles', user: '/h/.alfred/roles' },
    roles: new Map([['coder', { name: 'coder', source: 'builtin', path: '/b/coder.toml' }], ['careful', { name: 'careful', source: 'project', path: '/ws/.alfred/roles/careful.toml', inherits: 'coder' }]]),
    original: { name: 'careful', path: '/ws/.alfred/roles/careful.toml', source: 'project' }, exists: () => true,
  });
  assert.deepEqual(check.problems, []);
  assert.deepEqual(parseRoleFile(check.toml, check.path).definition.mcp, { unaudited: 'ask', dead: 'deny' });
  const bad = checkDraft({ ...emptyDraft(), name: 'n', denied: ['@mcp:'] }, {
    mode: 'new', folders: { project: '/ws/.alfred/roles', user: '/h' }, roles: new Map(), exists: () => false,
  });
  assert.deepEqual(bad.problems.map((p) => p.key), ['tools.denied[0]']);
  assert.equal(roleToToml({ name: 'n', tools: {}, limits: {}, mcp: { dead: 'ask' } }), '[role]\nname = "n"\n\n[mcp]\ndead = "ask"\n');
});

test('lowering [mcp] from deny or ask to allow is more authority', () => {
  const base: Role = {
    name: 'a', source: 'project', path: '', description: '', shellPolicy: 'track', sandbox: 'auto', failClosed: false, tools: { denied: [] },
    limits: { maxContextTokens: 1, maxShellInvocations: 1, maxCostUsd: 1, warnAtPercent: 80, blockAtPercent: 100 },
  };
  const strict = { ...base, mcp: { unaudited: 'deny', dead: 'ask' } } as const;
  assert.deepEqual(moreAuthority(base, strict), ['unaudited MCP servers deny → allow', 'dead MCP servers ask → allow']);
  assert.deepEqual(moreAuthority(strict, base), []);
});

test('the fingerprint\'s rolePolicy tells [mcp] rules apart, and a role without [mcp] hashes as before', async () => {
  const { harnessFingerprint } = await import('../../../../src/core/models/fingerprint/fingerprint');
  const role: Role = {
    name: 'a', source: 'project', path: '', description: '', shellPolicy: 'track', sandbox: 'auto', failClosed: false, tools: { denied: [] },
    limits: { maxContextTokens: 1, maxShellInvocations: 1, maxCostUsd: 1, warnAtPercent: 80, blockAtPercent: 100 },
  };
  const policy = (r: Role) => harnessFingerprint({ alfred: '1', role: r, checks: null, promptFiles: [], labels: {} }).components.rolePolicy;
  const plain = policy(role);
  assert.notEqual(policy({ ...role, mcp: { unaudited: 'deny', dead: 'allow' } }), plain);
  assert.notEqual(policy({ ...role, mcp: { unaudited: 'deny', dead: 'allow' } }), policy({ ...role, mcp: { unaudited: 'ask', dead: 'allow' } }));
  assert.equal(policy({ ...role, name: 'b' }), plain);
});

test('role files still refuse a category in another case; @mcp: takes any case', () => {
  const parsed = parseRoleFile('[tools]\nallowed = ["@Read", "@MCP:GitHub"]\n', '/x/case.toml');
  assert.deepEqual(parsed.problems.map((p) => p.key), ['tools.allowed[0]']);
  assert.match(parsed.problems[0]!.message, /^unknown tool category "@Read"/);
});
