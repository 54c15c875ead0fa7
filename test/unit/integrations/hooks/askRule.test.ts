/**
 * A role's `[tools] ask` (rules/policy/askPatterns.ts): calls that need the user's yes, answered in each
 * agent's own format through `alfred hook`: Claude Code's and VS Code's `ask` (VS Code's with the
 * command still rewritten into the sandbox), a refusal with the reason for the Copilot CLI; a deny
 * rule still wins; the role file's bad entries are reported.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRoleFile } from '../../../../src/core/rules/roles/schema';
import { detectSandbox } from '../../../../src/core/sandbox/index';
import { isolateEnv, newWorkspace, run } from '../../cli/helpers';

const env = isolateEnv();
const CAREFUL = '[role]\nname = "careful"\ninherits = "coder"\n[tools]\ndenied = ["mcp_github_delete_org"]\nask = ["@exec:git push*", "mcp_*_delete_*"]\n';

async function hook(folder: string, stdin: object, event = 'PreToolUse'): Promise<Record<string, unknown>> {
  process.env.ALFRED_ROLE = 'careful';
  try {
    const r = await run(['hook', event, '--workspace', folder], JSON.stringify({ cwd: folder, ...stdin }));
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  } finally {
    delete process.env.ALFRED_ROLE;
  }
}
const specific = (a: Record<string, unknown>) => (a.hookSpecificOutput ?? {}) as Record<string, unknown>;

describe('[tools] ask', () => {
  it('Claude Code is asked for a matching command, with the pattern named; another command and a denied tool are not', async () => {
    const folder = newWorkspace(env.root, { '.alfred/roles/careful.toml': CAREFUL });
    const push = specific(await hook(folder, { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git   push origin main' }, permission_mode: 'default' }));
    assert.equal(push.permissionDecision, 'ask');
    assert.match(String(push.permissionDecisionReason), /^Alfred \(role careful\): role careful asks the user before Bash running "git {3}push origin main" \(the \[tools\] ask pattern "@exec:git push\*"\)\.$/);
    const status = specific(await hook(folder, { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git status' }, permission_mode: 'default' }));
    assert.equal(status.permissionDecision, undefined);
    const mcp = specific(await hook(folder, { hook_event_name: 'PreToolUse', tool_name: 'mcp_github_delete_repo', tool_input: {}, permission_mode: 'default' }));
    assert.equal(mcp.permissionDecision, 'ask');
    const denied = specific(await hook(folder, { hook_event_name: 'PreToolUse', tool_name: 'mcp_github_delete_org', tool_input: {}, permission_mode: 'default' }));
    assert.equal(denied.permissionDecision, 'deny', 'a deny rule wins over ask');
  });

  it('the Copilot CLI, whose hooks cannot ask, gets a refusal with the reason', async () => {
    const folder = newWorkspace(env.root, { '.alfred/roles/careful.toml': CAREFUL });
    const answer = await hook(folder, { sessionId: 's', timestamp: 1, toolName: 'bash', toolArgs: JSON.stringify({ command: 'git push' }) }, 'preToolUse');
    assert.equal(answer.permissionDecision, 'deny');
    assert.match(String(answer.permissionDecisionReason), /asks the user before bash running "git push".*This agent's hooks cannot ask the user, so Alfred refuses it\.$/);
  });

  it('VS Code is asked, and the command it runs after a yes is still the sandbox\'s', { skip: detectSandbox().kind === 'none' ? 'no kernel sandbox' : false }, async () => {
    const folder = newWorkspace(env.root, { '.alfred/roles/careful.toml': CAREFUL });
    const answer = specific(await hook(folder, { hook_event_name: 'PreToolUse', tool_name: 'run_in_terminal', tool_input: { command: 'git push', explanation: 'x', goal: 'x', isBackground: false } }));
    assert.equal(answer.permissionDecision, 'ask');
    assert.match(String((answer.updatedInput as { command?: string } | undefined)?.command), /alfred-sandbox [0-9a-f]{16} 'git push'$/);
  });

  it('an @exec entry that names no command is an error naming the key', () => {
    const parsed = parseRoleFile('[role]\nname = "r"\n[tools]\nask = ["@exec:  ", "@bogus"]\n', '/p/r.toml');
    assert.deepEqual(parsed.problems.map((p) => [p.key, p.message]), [
      ['tools.ask[0]', '"@exec:  " names no command; write @exec:COMMAND, e.g. @exec:git push*'],
      ['tools.ask[1]', 'unknown tool category "@bogus" (known: @read, @search, @edit, @shell, @session, @web, @mcp, @task, @other, or @mcp:SERVER)'],
    ]);
  });
});
