import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRoleFile } from '../../../../src/core/rules/roles/schema';
import { SECURITY_AUDITOR } from './helpers';

const FILE = '/p/.alfred/roles/r.toml';
const parseR = (text: string) => parseRoleFile(text, FILE);
const keys = (text: string) => parseR(text).problems.map((p) => p.key);

test('the security-auditor example of docs/roles-and-budgets.md parses with no problem', () => {
  const parsed = parseRoleFile(SECURITY_AUDITOR, '/x/security-auditor.toml');
  assert.deepEqual(parsed.problems, []);
  assert.equal(parsed.ok, true);
  assert.deepEqual(parsed.definition, {
    name: 'security-auditor',
    inherits: 'reviewer',
    description: 'Security-focused code review',
    shellPolicy: 'deny',
    tools: { allowed: ['ctx_read', 'ctx_search', 'ctx_tree', 'ctx_review', 'ctx_session'], denied: ['ctx_edit', 'ctx_shell', 'ctx_execute'] },
    limits: { maxContextTokens: 100000, maxShellInvocations: 0, maxCostUsd: 2, warnAtPercent: 80, blockAtPercent: 100 },
  });
});

test('bad types are reported with the file path and the TOML key', () => {
  const parsed = parseR(`[role]
name = "r"
shell_policy = "never"
sandbox = "maybe"
fail_closed = "yes"
description = 3
[tools]
allowed = ["ctx_read", "@read", 3]
denied = "ctx_edit"
[limits]
max_cost_usd = "two"
max_context_tokens = 1.5
max_shell_invocations = -1
block_at_percent = 2000
`);
  assert.equal(parsed.ok, false);
  for (const p of parsed.problems) {
    assert.equal(p.path, FILE);
    assert.equal(p.severity, 'error');
    assert.equal(p.role, 'r');
  }
  assert.deepEqual(parsed.problems.map((p) => p.key).sort(), [
    'limits.block_at_percent', 'limits.max_context_tokens', 'limits.max_cost_usd', 'limits.max_shell_invocations',
    'role.description', 'role.fail_closed', 'role.sandbox', 'role.shell_policy', 'tools.allowed[2]', 'tools.denied',
  ]);
  assert.match(parsed.problems.find((p) => p.key === 'limits.max_cost_usd')!.message, /number/);
  assert.match(parsed.problems.find((p) => p.key === 'role.shell_policy')!.message, /track, compress, deny/);
  assert.match(parsed.problems.find((p) => p.key === 'role.sandbox')!.message, /must be one of strict, required, auto, off, got "maybe"/);
  assert.equal(parsed.definition.limits.maxCostUsd, undefined);
});

test('unknown sections and keys are errors naming the key', () => {
  assert.deepEqual(keys('[role]\nname = "r"\ncolour = "red"\n[tools]\nallow = []\n[limits]\nmax_tokens = 3\n[extra]\na = 1\n').sort(),
    ['extra', 'limits.max_tokens', 'role.colour', 'tools.allow']);
  assert.deepEqual(keys('top = 1\n'), ['top']);
  assert.deepEqual(keys('role = "r"\n'), ['role']);
});

test('the name must equal the file name stem and be a valid name', () => {
  assert.deepEqual(keys('[role]\nname = "other"\n'), ['role.name']);
  assert.match(parseR('[role]\nname = "other"\n').problems[0].message, /"other".*stem "r"/);
  assert.deepEqual(parseRoleFile('[role]\nname = "a b"\n', '/x/a b.toml').problems.map((p) => p.key), ['role.name']);
  assert.deepEqual(parseRoleFile('', `/x/${'n'.repeat(65)}.toml`).problems.map((p) => p.key), ['role.name']);
  assert.deepEqual(keys('[role]\ninherits = "../etc"\n'), ['role.inherits']);
  // A file without [role] takes its name from the file.
  assert.deepEqual(parseR('[limits]\nmax_cost_usd = 1\n'), { ok: true, problems: [], definition: { name: 'r', tools: {}, limits: { maxCostUsd: 1 } } });
});

test('@categories must be known ones', () => {
  const parsed = parseR('[tools]\nallowed = ["@read", "@task", "@other", "@network"]\ndenied = ["@"]\n');
  assert.deepEqual(parsed.problems.map((p) => p.key), ['tools.allowed[3]', 'tools.denied[0]']);
  assert.match(parsed.problems[0].message, /unknown tool category "@network"/);
});

test('warn_at_percent above block_at_percent in one file is an error', () => {
  assert.deepEqual(keys('[limits]\nwarn_at_percent = 120\nblock_at_percent = 100\n'), ['limits.warn_at_percent']);
  assert.deepEqual(keys('[limits]\nwarn_at_percent = 100\nblock_at_percent = 100\n'), []);
});

test('allowed = [] loads with a warning that Alfred reads it as no tool', () => {
  const parsed = parseR('[tools]\nallowed = []\n');
  assert.equal(parsed.ok, true);
  assert.deepEqual(parsed.definition.tools, { allowed: [] });
  assert.equal(parsed.problems.length, 1);
  assert.equal(parsed.problems[0].severity, 'warning');
  assert.equal(parsed.problems[0].key, 'tools.allowed');
  assert.match(parsed.problems[0].message, /no tool/);
  assert.match(parsed.problems[0].message, /lean-ctx/);
});

test('a syntax error gives the line and column', () => {
  const parsed = parseR('[role]\nname = "r"\nshell_policy = \n');
  assert.equal(parsed.ok, false);
  assert.equal(parsed.problems.length, 1);
  assert.equal(parsed.problems[0].key, '');
  assert.match(parsed.problems[0].message, /line 3, column \d+/);
});

test('a lean-ctx file with [io] and allowed = ["*"] loads unchanged', () => {
  const parsed = parseR('[role]\nname = "r"\ndescription = "x"\nshell_policy = "compress"\n[tools]\nallowed = ["*"]\ndenied = []\n[io]\nboundary_mode = "enforce"\nredact_outputs = true\n[limits]\nmax_context_tokens = 10\nwarn_at_percent = 90\nblock_at_percent = 255\n');
  assert.equal(parsed.ok, true);
  assert.deepEqual(parsed.problems.map((p) => [p.key, p.severity]), [['io', 'warning']]);
  assert.deepEqual(parsed.definition.tools, { allowed: ['*'], denied: [] });
  assert.equal(parsed.definition.shellPolicy, 'compress');
});

test('sandbox is one of required, auto, off; anything else is an error naming role.sandbox', () => {
  for (const mode of ['required', 'auto', 'off'] as const) assert.equal(parseR(`[role]\nsandbox = "${mode}"\n`).definition.sandbox, mode);
  assert.equal(parseR('[role]\n').definition.sandbox, undefined);
  for (const bad of ['true', '"Required"', '1', '["auto"]']) {
    const parsed = parseR(`[role]\nsandbox = ${bad}\n`);
    assert.equal(parsed.ok, false, bad);
    assert.deepEqual(parsed.problems.map((p) => [p.path, p.key]), [[FILE, 'role.sandbox']], bad);
  }
});

test('fail_closed is read as a boolean', () => {
  assert.equal(parseR('[role]\nfail_closed = true\n').definition.failClosed, true);
});

test('[sandbox]: allow_write and [sandbox.network] are read; each bad value is an error naming its key and what is wrong', () => {
  const good = parseR('[role]\nname = "r"\n[sandbox]\nallow_write = ["~/notes", "/opt/data", "~"]\n[sandbox.network]\nallow = ["registry.npmjs.org", "*.github.com"]\ndeny = ["*"]\n');
  assert.deepEqual(good.problems, []);
  assert.deepEqual(good.definition.sandboxRules, { allowWrite: ['~/notes', '/opt/data', '~'], network: { allow: ['registry.npmjs.org', '*.github.com'], deny: ['*'] } });
  const bad = parseR(`[role]
name = "r"
[sandbox]
allow_write = ["notes", "~/a/../b", 3, ""]
colour = "red"
[sandbox.network]
allow = ["https://example.org", "Example.org", "a b", "example.org:443"]
deny = "x"
proxy = true
`);
  const messages = Object.fromEntries(bad.problems.map((p) => [p.key, p.message]));
  assert.deepEqual(messages, {
    'sandbox.allow_write[0]': '"notes" must be an absolute path or start with "~/" (the workspace is writable already)',
    'sandbox.allow_write[1]': '"~/a/../b" must not hold ".." (write the folder itself)',
    'sandbox.allow_write[2]': 'a path must be a string, got a number',
    'sandbox.allow_write[3]': 'a path must not be empty',
    'sandbox.colour': 'unknown key "colour" in [sandbox] (expected allow_write, network)',
    'sandbox.network.allow[0]': '"https://example.org" is not a host name: write the name alone, without a scheme, a path or a port',
    'sandbox.network.allow[1]': '"Example.org" must be written in lower case',
    'sandbox.network.allow[2]': '"a b" is not a host name (letters, digits, "-" and "."), "*.name" for its subdomains, or "*" for every name',
    'sandbox.network.allow[3]': '"example.org:443" is not a host name: write the name alone, without a scheme, a path or a port',
    'sandbox.network.deny': 'must be an array of strings, got string',
    'sandbox.network.proxy': 'unknown key "proxy" in [sandbox.network] (expected allow, deny)',
  });
  assert.equal(bad.ok, false);
  assert.equal(bad.definition.sandboxRules?.allowWrite, undefined);
});
