/** Refusals suggest the caller's own tools (rules/policy/toolsets.ts): Claude Code's model knows Read, not ctx_read. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BudgetStatus } from '../../../../src/core/rules/budget/types';
import { decide as gateDecide } from '../../../../src/core/rules/policy/gate';
import { toolCall } from '../../../../src/core/rules/policy/toolCall';
import { suggestedTools, type Toolset } from '../../../../src/core/rules/policy/toolsets';
import type { Role, ShellPolicy, ToolRules } from '../../../../src/core/rules/roles/types';

function role(name: string, tools: ToolRules, shellPolicy: ShellPolicy = 'track'): Role {
  return {
    name, source: 'builtin', path: `/roles/${name}.toml`, description: name, shellPolicy, sandbox: 'auto', tools, failClosed: false,
    limits: { maxContextTokens: 200000, maxShellInvocations: 10, maxCostUsd: 5, warnAtPercent: 80, blockAtPercent: 100 },
  };
}

const reviewer = role('reviewer', { allowed: ['@read', '@search', 'ctx_review', 'ctx_session'], denied: ['@edit', '@shell'] }, 'deny');
const ops = role('ops', { denied: ['@edit'] });
const noWrite = role('nowrite', { denied: ['Write', 'create'] });

const reason = (r: Role, tool: string, toolset?: Toolset, extra: Partial<Parameters<typeof gateDecide>[0]> = {}): string =>
  gateDecide({ role: r, call: toolCall(tool), ...(toolset ? { toolset } : {}), ...extra }).reason ?? '';

describe('refusals name the caller\'s tools', () => {
  it('a read-only role points each agent to its own read and search tools', () => {
    assert.equal(reason(reviewer, 'Bash', 'claude-code'), 'Role reviewer does not run shell commands (shell policy deny), so Bash is refused. Role reviewer is read-only: use Read, Grep or Glob.');
    assert.equal(reason(reviewer, 'Edit', 'claude-code'), 'Tool Edit is denied for role reviewer by the pattern "@edit". Role reviewer is read-only: use Read, Grep or Glob.');
    assert.equal(reason(reviewer, 'bash', 'copilot-cli'), 'Role reviewer does not run shell commands (shell policy deny), so bash is refused. Role reviewer is read-only: use view, grep or glob.');
    assert.equal(reason(reviewer, 'run_in_terminal', 'alfred'), 'Role reviewer does not run shell commands (shell policy deny), so run_in_terminal is refused. Role reviewer is read-only: use ctx_read or ctx_search.');
    assert.equal(reason(reviewer, 'run_in_terminal'), reason(reviewer, 'run_in_terminal', 'alfred'), 'Alfred\'s own tools when the caller is not told');
  });

  it('Codex reads through its shell: a read-only role has nothing of Codex\'s to suggest', () => {
    assert.equal(reason(reviewer, 'apply_patch', 'codex'), 'Tool apply_patch is denied for role reviewer by the pattern "@edit". Ask the user to switch role if apply_patch is needed.');
    assert.equal(reason(reviewer, 'exec_command', 'codex'), 'Role reviewer does not run shell commands (shell policy deny), so exec_command is refused. Ask the user to switch role if exec_command is needed.');
    assert.equal(reason(role('nobash', { denied: ['Bash'] }), 'Bash', 'codex'), 'Tool Bash is denied for role nobash by the pattern "Bash". Use exec_command instead.');
  });

  it('the same tool of another name, where the role permits one', () => {
    assert.equal(reason(noWrite, 'Write', 'claude-code'), 'Tool Write is denied for role nowrite by the pattern "Write". Use Edit instead.');
    assert.equal(reason(noWrite, 'create', 'copilot-cli'), 'Tool create is denied for role nowrite by the pattern "create". Use edit instead.');
    // ops refuses every edit tool: none to suggest, in any agent's words.
    assert.equal(reason(ops, 'Edit', 'claude-code'), 'Tool Edit is denied for role ops by the pattern "@edit". Ask the user to switch role if Edit is needed.');
  });

  it('an exhausted budget or an empty allow list names ctx_session only to a caller that has it', () => {
    const exhausted = { role: 'coder', signal: 'EXHAUSTED', dimensions: { shell: { used: 10, limit: 10, percent: 100, signal: 'EXHAUSTED' } } } as unknown as BudgetStatus;
    assert.equal(reason(ops, 'Read', 'claude-code', { budget: exhausted }), 'Budget exhausted: shell 10/10 (100%) reached the block limit of role coder. Every tool is refused; ask the user to reset the budget or switch role.');
    assert.match(reason(ops, 'read_file', 'alfred', { budget: exhausted }), /Only ctx_session is callable; ask the user/);
    const locked = role('locked', { allowed: [], denied: [] });
    assert.equal(reason(locked, 'Bash', 'claude-code'), 'Role locked allows no tools (allowed = []), so Bash is refused. Ask the user to switch role.');
    assert.equal(reason(locked, 'ctx_shell'), 'Role locked allows no tools (allowed = []), so ctx_shell is refused; only ctx_session is callable. Ask the user to switch role.');
  });

  it('no terminal agent is ever pointed to one of Alfred\'s tools', () => {
    for (const toolset of ['claude-code', 'codex', 'copilot-cli', 'gemini'] as const) {
      for (const r of [reviewer, ops, noWrite]) {
        for (const tool of ['Bash', 'Edit', 'Write', 'bash', 'create', 'apply_patch', 'run_in_terminal']) {
          assert.doesNotMatch(reason(r, tool, toolset), /ctx_/, `${toolset} ${r.name} ${tool}`);
        }
      }
    }
  });

  it('suggests only names the category table files under that category (the role\'s rules are checked against them)', () => {
    for (const toolset of ['alfred', 'claude-code', 'codex', 'copilot-cli', 'gemini'] as const) {
      for (const category of ['read', 'search', 'edit', 'shell'] as const) {
        for (const name of suggestedTools(toolset, category)) assert.equal(toolCall(name).category, category, `${toolset} ${name}`);
      }
    }
    assert.deepEqual(suggestedTools('claude-code', 'search'), ['Grep', 'Glob']);
    assert.deepEqual(suggestedTools('gemini', 'read'), ['read_file']);
  });
});
