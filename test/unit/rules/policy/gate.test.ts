import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type { BudgetStatus, Dimension, DimensionStatus, Signal } from '../../../../src/core/rules/budget/types';
import { decide as gateDecide, rolePermits, type GateInput } from '../../../../src/core/rules/policy/gate';
import { toolCall } from '../../../../src/core/rules/policy/toolCall';
import type { Role, ShellPolicy, ToolRules } from '../../../../src/core/rules/roles/types';

function role(name: string, tools: ToolRules, shellPolicy: ShellPolicy = 'track'): Role {
  return {
    name, source: 'builtin', path: `/roles/${name}.toml`, description: name, shellPolicy, sandbox: 'auto', tools, failClosed: false,
    limits: { maxContextTokens: 200000, maxShellInvocations: 10, maxCostUsd: 5, warnAtPercent: 80, blockAtPercent: 100 },
  };
}

/** The gate on a call read as its entry reads it. */
function decide({ tool, toolInput, ...rest }: Omit<GateInput, 'call'> & { tool: string; toolInput?: unknown }) {
  return gateDecide({ ...rest, call: toolCall(tool, toolInput) });
}

const coder = role('coder', { denied: [] });
const reviewer = role('reviewer', { allowed: ['@read', '@search', 'ctx_review', 'ctx_session'], denied: ['@edit', '@shell'] }, 'deny');
const nothing = role('locked', { allowed: [], denied: [] });

function dim(used: number, limit: number, signal: Signal = 'OK'): DimensionStatus {
  return { used, limit, percent: limit === 0 ? (used > 0 ? 100 : 0) : Math.floor((used * 100) / limit), signal };
}

function budget(dimensions: Partial<Record<Dimension, DimensionStatus>>, signal: Signal): BudgetStatus {
  return {
    role: 'coder', signal, costEstimated: false,
    dimensions: { tokens: dim(0, 200000), shell: dim(0, 10), cost: dim(0, 5), ...dimensions },
  };
}

describe('decide: tool rules', () => {
  it('allows every tool when allowed is absent', () => {
    for (const tool of ['read_file', 'Edit', 'mcp__x__y', 'whatever']) assert.equal(decide({ role: coder, tool }).allowed, true, tool);
  });

  it('allows nothing but ctx_session when allowed = []', () => {
    const d = decide({ role: nothing, tool: 'ctx_read' });
    assert.equal(d.allowed, false);
    assert.equal(d.code, 'tool-not-allowed');
    assert.match(d.reason ?? '', /allows no tools/);
    assert.equal(decide({ role: nothing, tool: 'ctx_session' }).allowed, true);
  });

  it('lets denied win over allowed and names the pattern', () => {
    const r = role('r', { allowed: ['ctx_*', 'Bash'], denied: ['ctx_edit', 'Ba?h'] });
    const d = decide({ role: r, tool: 'ctx_edit' });
    assert.deepEqual([d.allowed, d.code], [false, 'tool-denied']);
    assert.match(d.reason ?? '', /"ctx_edit"/);
    assert.equal(decide({ role: r, tool: 'Bash' }).code, 'tool-denied');
    assert.equal(decide({ role: r, tool: 'ctx_read' }).allowed, true);
  });

  it('refuses tools outside allowed, listing the allowed patterns', () => {
    const r = role('narrow', { allowed: ['ctx_read', 'mcp_github_*'], denied: [] });
    const d = decide({ role: r, tool: 'mcp_gitlab_merge' });
    assert.equal(d.code, 'tool-not-allowed');
    assert.match(d.reason ?? '', /ctx_read, mcp_github_\*/);
    assert.equal(decide({ role: r, tool: 'mcp_github_get_issue' }).allowed, true);
  });

  it('matches globs across qualified names and @category patterns', () => {
    const r = role('ops', { denied: ['@edit', 'execute/*'] });
    assert.equal(decide({ role: r, tool: 'execute/runInTerminal' }).code, 'tool-denied');
    assert.equal(decide({ role: r, tool: 'edit/editFiles' }).code, 'tool-denied');
    assert.equal(decide({ role: r, tool: 'apply_patch' }).code, 'tool-denied');
    assert.equal(decide({ role: r, tool: 'Write' }).code, 'tool-denied');
    assert.equal(decide({ role: r, tool: 'run_in_terminal' }).allowed, true);
  });

  it('keeps ctx_session callable under any rule', () => {
    const hostile = role('hostile', { allowed: [], denied: ['*', '@session', 'ctx_session'] }, 'deny');
    const exhausted = budget({ shell: dim(10, 10, 'EXHAUSTED') }, 'EXHAUSTED');
    const d = decide({ role: hostile, tool: 'ctx_session', budget: exhausted });
    assert.deepEqual(d, { allowed: true, category: 'session', shellCharge: 0 });
  });
});

describe('decide: shell', () => {
  it('refuses every shell-category tool under shell policy deny, helpers included', () => {
    const r = role('quiet', { denied: [] }, 'deny');
    for (const tool of ['run_in_terminal', 'Bash', 'bash', 'ctx_shell', 'runInTerminal', 'execute/runInTerminal',
      'get_terminal_output', 'kill_terminal', 'BashOutput', 'KillShell', 'read_bash', 'powershell']) {
      const d = decide({ role: r, tool });
      assert.deepEqual([d.allowed, d.code, d.category, d.shellCharge], [false, 'shell-denied', 'shell', 0], tool);
    }
    assert.equal(decide({ role: r, tool: 'read_file' }).allowed, true);
  });

  it('suggests read tools when the role is read-only', () => {
    const d = decide({ role: reviewer, tool: 'run_in_terminal' });
    assert.equal(d.code, 'shell-denied');
    assert.match(d.reason ?? '', /Role reviewer is read-only: use ctx_read or ctx_search\./);
    const e = decide({ role: reviewer, tool: 'replace_string_in_file' });
    assert.equal(e.code, 'tool-denied');
    assert.match(e.reason ?? '', /"@edit".*read-only: use ctx_read or ctx_search/);
    assert.equal(decide({ role: reviewer, tool: 'Grep' }).allowed, true);
    assert.equal(decide({ role: reviewer, tool: 'ctx_review' }).allowed, true);
  });

  it('charges 1 for new invocations and 0 for helpers and other tools', () => {
    for (const tool of ['run_in_terminal', 'Bash', 'ctx_shell', 'runTests', 'run_notebook_cell', 'create_and_run_task', 'run_task']) {
      assert.equal(decide({ role: coder, tool }).shellCharge, 1, tool);
    }
    for (const tool of ['get_terminal_output', 'kill_terminal', 'BashOutput', 'KillShell', 'read_bash', 'stop_bash', 'read_file', 'Edit']) {
      const d = decide({ role: coder, tool });
      assert.deepEqual([d.allowed, d.shellCharge], [true, 0], tool);
    }
  });

  it('charges nothing for a refused shell call', () => {
    assert.equal(decide({ role: role('r', { denied: ['Bash'] }), tool: 'Bash' }).shellCharge, 0);
  });
});

describe('decide: budget', () => {
  const exhausted = budget({ shell: dim(10, 10, 'EXHAUSTED'), tokens: dim(170000, 200000, 'WARNING') }, 'EXHAUSTED');

  it('refuses every tool but ctx_session, naming the exhausted dimension', () => {
    for (const tool of ['read_file', 'ctx_read', 'get_terminal_output', 'Edit']) {
      const d = decide({ role: coder, tool, budget: exhausted });
      assert.deepEqual([d.allowed, d.code, d.shellCharge], [false, 'budget-exhausted', 0], tool);
    }
    const d = decide({ role: coder, tool: 'read_file', budget: exhausted });
    assert.equal(d.reason, 'Budget exhausted: shell 10/10 (100%) reached the block limit of role coder. '
      + 'Only ctx_session is callable; ask the user to reset the budget or switch role.');
    assert.doesNotMatch(d.reason ?? '', /tokens/);
    assert.equal(decide({ role: coder, tool: 'ctx_session', budget: exhausted }).allowed, true);
  });

  it('names several dimensions, formats cost and quotes the budget line', () => {
    const b = budget({ tokens: dim(210000, 200000, 'EXHAUSTED'), cost: dim(5.2, 5, 'EXHAUSTED') }, 'EXHAUSTED');
    const line = 'Budget[coder]: tokens 210000/200000 (105%) | shell 0/10 (0%) | cost $5.20/$5.00 (104%) → EXHAUSTED';
    const d = decide({ role: coder, tool: 'Bash', budget: b, budgetLine: line });
    assert.match(d.reason ?? '', /tokens 210000\/200000 \(105%\) and cost \$5\.20\/\$5\.00 \(104%\) reached the block limit/);
    assert.ok(d.reason?.endsWith(line));
  });

  it('lets calls through at WARNING', () => {
    const warning = budget({ shell: dim(9, 10, 'WARNING') }, 'WARNING');
    assert.deepEqual(decide({ role: coder, tool: 'Bash', budget: warning }), { allowed: true, category: 'shell', shellCharge: 1 });
  });
});

describe('decide: protected paths', () => {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-gate-'));
  after(() => fs.rmSync(ws, { recursive: true, force: true }));
  const protectedPaths = { globs: ['tests/**'], workspaceFolder: ws };

  it('refuses edits to protected files and names path and glob', () => {
    const d = decide({ role: coder, tool: 'replace_string_in_file', toolInput: { filePath: path.join(ws, 'tests/a.test.ts') }, protectedPaths });
    assert.equal(d.code, 'protected-path');
    assert.match(d.reason ?? '', /tests\/a\.test\.ts.*"tests\/\*\*"/);
    assert.equal(decide({ role: coder, tool: 'Write', toolInput: { file_path: 'src/a.ts' }, protectedPaths }).allowed, true);
  });

  it('checks apply_patch, multi_replace and .. escapes', () => {
    const patch = '*** Begin Patch\n*** Update File: src/ok.ts\n@@\n-a\n+b\n*** Delete File: tests/old.test.ts\n*** End Patch';
    assert.equal(decide({ role: coder, tool: 'apply_patch', toolInput: { input: patch }, protectedPaths }).code, 'protected-path');
    const multi = { replacements: [{ filePath: 'src/x.ts' }, { filePath: 'tests/y.ts' }] };
    assert.equal(decide({ role: coder, tool: 'multi_replace_string_in_file', toolInput: multi, protectedPaths }).code, 'protected-path');
    const d = decide({ role: coder, tool: 'create_file', toolInput: { filePath: '../elsewhere.ts' }, protectedPaths });
    assert.match(d.reason ?? '', /outside the workspace/);
  });

  it('does not check paths of read tools', () => {
    assert.equal(decide({ role: coder, tool: 'read_file', toolInput: { filePath: 'tests/a.ts' }, protectedPaths }).allowed, true);
  });
});

describe('rolePermits', () => {
  it('applies tool lists and shell policy', () => {
    assert.equal(rolePermits(reviewer, 'ctx_read'), true);
    assert.equal(rolePermits(reviewer, 'ctx_edit'), false);
    assert.equal(rolePermits(reviewer, 'ctx_shell'), false);
    assert.equal(rolePermits(nothing, 'ctx_session'), true);
  });
});
