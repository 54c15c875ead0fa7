/** The `alfred` commands, called in-process through main(argv, io). */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { isolateEnv, newWorkspace, run } from './helpers';

const env = isolateEnv();
const ws = (files?: Record<string, string>) => newWorkspace(env.root, files);
const BROKEN = '[role]\nname = "broken"\n[limits]\nmax_cost_usd = "lots"\n';
const FRESH_LINE = 'Budget[coder]: tokens 0/200000 (0%) | shell 0/100 (0%) | cost $0.00/$5.00 (0%) → OK';

describe('alfred roles', () => {
  it('--json: every role in the documented shape, and a broken project role\'s problem with path and key', async () => {
    const folder = ws({ '.alfred/roles/broken.toml': BROKEN });
    const r = await run(['roles', '--json', '--workspace', folder]);
    assert.equal(r.code, 0);
    assert.equal(r.err.length, 0);
    const data = JSON.parse(r.stdout) as { roles: Record<string, unknown>[]; problems: Record<string, unknown>[] };
    assert.deepEqual(Object.keys(data), ['roles', 'problems']);
    assert.deepEqual(data.roles.map((x) => x.name), ['coder', 'reviewer', 'debugger', 'ops', 'admin']);
    const reviewer = data.roles.find((x) => x.name === 'reviewer');
    assert.deepEqual(reviewer, {
      name: 'reviewer', source: 'builtin', inherits: null, shell_policy: 'deny',
      tools: { allowed: ['@read', '@search', 'ctx_review', 'ctx_session'], denied: ['@edit', '@shell'] },
      limits: { max_context_tokens: 150000, max_shell_invocations: 0, max_cost_usd: 3, warn_at_percent: 80, block_at_percent: 100 },
    });
    assert.deepEqual(data.roles.find((x) => x.name === 'coder')?.tools, { allowed: null, denied: [] });
    const problem = data.problems.find((p) => p.key === 'limits.max_cost_usd');
    assert.deepEqual(problem && Object.keys(problem), ['path', 'key', 'message']);
    assert.equal(problem?.path, path.join(folder, '.alfred', 'roles', 'broken.toml'));
    assert.match(String(problem?.message), /must be a number/);
  });

  it('without --json: one line a role, the active one starred, problems on stderr', async () => {
    const r = await run(['roles', '--workspace', ws({ '.alfred/roles/broken.toml': BROKEN })]);
    assert.equal(r.code, 0);
    assert.equal(r.out.length, 5);
    assert.match(r.out[0]!, /^\* coder +builtin/);
    assert.match(r.stderr, /^error: .*broken\.toml \[limits\.max_cost_usd\]: must be a number/);
  });
});

describe('alfred role', () => {
  it('NAME switches (a fresh session), and the switch is what role shows after', async () => {
    const folder = ws();
    const r = await run(['role', 'reviewer', '--workspace', folder]);
    assert.deepEqual([r.code, r.stdout], [0, 'Switched to role reviewer.']);
    const shown = await run(['role', '--json', '--workspace', folder]);
    assert.deepEqual(JSON.parse(shown.stdout), { role: 'reviewer', from: 'runtime', source: 'builtin', problem: null });
    assert.match((await run(['budget', '--workspace', folder])).stdout, /^Budget\[reviewer\]: /);
  });

  it('an unknown NAME exits 1, listing the roles, and switches nothing', async () => {
    const folder = ws();
    const r = await run(['role', 'nope', '--workspace', folder]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, 'Unknown role "nope". Available roles: admin, coder, debugger, ops, reviewer.');
    assert.match((await run(['role', '--workspace', folder])).stdout, /^coder \(default\): /);
  });

  it('reads alfred.role from the workspace settings (JSON with comments) when it lowers authority', async () => {
    const folder = ws({ '.vscode/settings.json': '{\n  // the team default\n  "alfred.role": "reviewer",\n}\n' });
    assert.match((await run(['role', '--workspace', folder])).stdout, /^reviewer \(setting\): /);
  });

  it('ignores a workspace setting that would raise authority (an agent could have written it), and says why', async () => {
    const folder = ws({ '.vscode/settings.json': '{ "alfred.role": "admin" }' });
    const r = await run(['role', '--workspace', folder]);
    assert.match(r.stdout, /^coder \(default\): /);
    assert.match(r.stderr, /^The workspace's settings ask for role admin, which has more authority than coder \(context tokens 200000 → 500000; shell calls 100 → 500; cost limit \$ 5 → 50; network reaches every name\)\. Settings from the repository never raise authority/);
  });

  it('a switch to more authority is only requested (exit 3), logged with what it would raise; a switch down is immediate', async () => {
    const folder = ws();
    const up = await run(['role', 'admin', '--workspace', folder]);
    assert.equal(up.code, 3);
    assert.match(up.stdout, /^Not switched: role admin has more authority than coder/);
    assert.match((await run(['role', '--workspace', folder])).stdout, /^coder \(default\)/);
    const last = JSON.parse((await run(['events', '--tail', '1', '--json', '--workspace', folder])).stdout) as Record<string, unknown>;
    assert.deepEqual([last.type, last.action, last.target, last.by, last.gains], ['AuthorityRequested', 'role', 'admin', 'cli', ['context tokens 200000 → 500000', 'shell calls 100 → 500', 'cost limit $ 5 → 50', 'network reaches every name']]);
    const down = await run(['role', 'reviewer', '--workspace', folder]);
    assert.deepEqual([down.code, down.stdout], [0, 'Switched to role reviewer.']);
    const back = await run(['role', 'coder', '--workspace', folder]);
    assert.equal(back.code, 3, 'reviewer → coder raises authority too (shell, edit tools)');
    assert.match(back.stdout, /shell deny → track; network reaches registry.npmjs.org, registry.yarnpkg.com, pypi.org, files.pythonhosted.org, crates.io and 15 more; tools /);
  });
});

describe('alfred budget', () => {
  it('prints the exact budget line on a fresh workspace', async () => {
    const r = await run(['budget', '--workspace', ws()]);
    assert.deepEqual([r.code, r.out, r.err], [0, [FRESH_LINE], []]);
  });

  it('--json: role, signal and each dimension\'s used, limit and percent', async () => {
    const data = JSON.parse((await run(['budget', '--json', '--workspace', ws()])).stdout) as Record<string, unknown>;
    assert.equal(data.role, 'coder');
    assert.equal(data.signal, 'OK');
    assert.deepEqual(data.dimensions, {
      tokens: { used: 0, limit: 200000, percent: 0 },
      shell: { used: 0, limit: 100, percent: 0 },
      cost: { used: 0, limit: 5, percent: 0 },
    });
  });
});

describe('alfred events and reset', () => {
  it('events --tail 2 --json prints the last two events, one JSON object a line', async () => {
    const folder = ws();
    for (const tool of ['read_file', 'run_in_terminal', 'Edit']) {
      assert.equal((await run(['hook', 'PreToolUse', '--workspace', folder], JSON.stringify({ tool_name: tool, tool_input: {} }))).code, 0);
    }
    const r = await run(['events', '--tail', '2', '--json', '--workspace', folder]);
    assert.equal(r.code, 0);
    assert.equal(r.out.length, 2);
    const events = r.out.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(events.map((e) => [e.type, e.tool]), [['ToolCall', 'run_in_terminal'], ['ToolCall', 'Edit']]);
    const text = await run(['events', '--workspace', folder]);
    assert.equal(text.out.length, 3);
    assert.match(text.out[1]!, /ToolCall +coder +Allowed run_in_terminal \(hook:PreToolUse\), 1 shell call$/);
  });

  it('--verify says the chain holds, and names the file and line where an edited log breaks it (exit 1)', async () => {
    const folder = ws();
    for (const tool of ['read_file', 'run_in_terminal', 'Edit']) await run(['hook', 'PreToolUse', '--workspace', folder], JSON.stringify({ tool_name: tool, tool_input: {} }));
    const ok = await run(['events', '--verify', '--workspace', folder]);
    assert.deepEqual([ok.code, ok.stdout], [0, 'The event log\'s chain holds: 3 lines in 1 file(s), linked from its first line.']);
    const state = JSON.parse((await run(['status', '--json', '--workspace', folder])).stdout).stateDir as string;
    const log = path.join(state, 'events.jsonl');
    fs.writeFileSync(log, fs.readFileSync(log, 'utf8').replace('"tool":"run_in_terminal"', '"tool":"read_file"'));
    const broken = await run(['events', '--verify', '--workspace', folder]);
    assert.deepEqual([broken.code, broken.stdout], [1, `The event log's chain breaks at ${log}:3: prev does not match the line before it: that line was changed, or lines between them were removed or reordered.`]);
  });

  it('--tail needs a positive whole number', async () => {
    const r = await run(['events', '--tail', 'x', '--workspace', ws()]);
    assert.deepEqual([r.code, r.stderr], [1, 'alfred: --tail needs a positive whole number.']);
  });

  it('reset from a non-interactive command line is a request that waits for the user; the budget is unchanged', async () => {
    const folder = ws();
    await run(['hook', 'PreToolUse', '--workspace', folder], JSON.stringify({ tool_name: 'bash', tool_input: { command: 'ls' } }));
    assert.match((await run(['budget', '--workspace', folder])).stdout, /shell 1\/100/);
    const r = await run(['reset', '--workspace', folder]);
    assert.equal(r.code, 3);
    assert.match(r.stdout, /^Not reset yet: the request waits for your confirmation in VS Code/);
    assert.match((await run(['budget', '--workspace', folder])).stdout, /shell 1\/100/);
    const last = JSON.parse((await run(['events', '--tail', '1', '--json', '--workspace', folder])).stdout) as Record<string, unknown>;
    assert.deepEqual([last.type, last.action, last.by], ['AuthorityRequested', 'reset', 'cli']);
  });
});

describe('alfred status', () => {
  it('--json names the workspace, the state folder under ALFRED_HOME and the role', async () => {
    const folder = ws();
    const data = JSON.parse((await run(['status', '--json', '--workspace', folder])).stdout) as Record<string, unknown>;
    assert.equal(data.workspace, folder);
    assert.ok(String(data.stateDir).startsWith(path.join(process.env.ALFRED_HOME!, 'state')));
    assert.deepEqual([data.role, data.from, data.line, data.problems], ['coder', 'default', FRESH_LINE, 0]);
  });

  it('a --workspace that is not a folder exits 1 with a message', async () => {
    const r = await run(['status', '--workspace', path.join(env.root, 'missing')]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^alfred status: --workspace .*missing: not a folder\.$/);
    assert.equal(fs.existsSync(path.join(env.root, 'missing')), false);
  });
});

describe('usage errors', () => {
  it('an unknown command exits 1 with the help on stderr', async () => {
    const r = await run(['frobnicate']);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^alfred: unknown command "frobnicate"\./);
    assert.match(r.stderr, /Usage:\n {2}alfred status/);
    assert.match(r.stderr, /alfred hook </);
  });

  it('an unknown option exits 1 with the help', async () => {
    const r = await run(['budget', '--bogus']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /--bogus/);
    assert.match(r.stderr, /Usage:/);
  });

  it('no command prints the help and exits 1; --help exits 0', async () => {
    const none = await run([]);
    assert.equal(none.code, 1);
    assert.match(none.stdout, /^alfred: the agent harness/);
    const help = await run(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage:/);
  });
});

describe('alfred through its bundle, as a shell runs it', () => {
  it('ends quietly when the reader stops early (alfred status | true)', () => {
    const bundle = path.join(path.resolve(__dirname, '../../..'), 'dist', 'cli', 'alfred.cjs');
    const folder = newWorkspace(env.root);
    // `true` exits without reading: every write after that meets a closed pipe (EPIPE).
    const r = spawnSync('/bin/bash', ['-c', `"${process.execPath}" "${bundle}" status --workspace "${folder}" | true; echo "\${PIPESTATUS[0]}"`], { encoding: 'utf8' });
    assert.equal(r.stderr, '', 'no EPIPE stack');
    assert.equal(r.stdout, '0\n', 'alfred exits 0');
  });
});
