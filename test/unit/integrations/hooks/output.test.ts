import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHookInput } from '../../../../src/core/integrations/hooks/input';
import { blockStopAnswer, denyAnswer, passAnswer } from '../../../../src/core/integrations/hooks/output';

describe('denyAnswer', () => {
  it('VS Code / Claude Code: hookSpecificOutput with the event name, exit 0', () => {
    const answer = denyAnswer('vscode', 'PreToolUse', 'no shell here');
    assert.equal(answer.exitCode, 0);
    assert.deepEqual(JSON.parse(answer.stdout), {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no shell here' },
    });
  });

  it('Copilot CLI: top-level permissionDecision and permissionDecisionReason, exit 0', () => {
    const answer = denyAnswer('copilot-cli', 'preToolUse', 'no shell here');
    assert.equal(answer.exitCode, 0);
    assert.deepEqual(JSON.parse(answer.stdout), { permissionDecision: 'deny', permissionDecisionReason: 'no shell here' });
  });

  it('prints one line of JSON', () => {
    assert.equal(denyAnswer('vscode', 'PreToolUse', 'a\nb').stdout.includes('\n'), false);
  });
});

describe('passAnswer', () => {
  it('without context: an empty object, never an explicit allow', () => {
    for (const format of ['vscode', 'copilot-cli'] as const) {
      assert.deepEqual(passAnswer(format, 'PreToolUse'), { stdout: '{}', exitCode: 0 });
      assert.deepEqual(passAnswer(format, 'PreToolUse', ''), { stdout: '{}', exitCode: 0 });
    }
  });

  it('VS Code: additionalContext inside hookSpecificOutput with the event name', () => {
    const answer = passAnswer('vscode', 'PostToolUse', 'Budget[coder]: … → WARNING');
    assert.equal(answer.exitCode, 0);
    assert.deepEqual(JSON.parse(answer.stdout), { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'Budget[coder]: … → WARNING' } });
  });

  it('Copilot CLI: additionalContext at the top level', () => {
    assert.deepEqual(JSON.parse(passAnswer('copilot-cli', 'preToolUse', 'line').stdout), { additionalContext: 'line' });
  });

  it('a rewritten input goes in the field each agent applies without a decision', () => {
    const input = { command: 'alfred-sandbox x ls', description: 'list' };
    // VS Code's agent and Claude Code: updatedInput, and no permissionDecision (their own check still runs).
    for (const agent of [undefined, 'claude-code'] as const) {
      assert.deepEqual(JSON.parse(passAnswer('vscode', 'PreToolUse', undefined, input, agent).stdout), { hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: input } });
    }
    // The Copilot CLI ignores updatedInput and applies modifiedArgs.
    assert.deepEqual(JSON.parse(passAnswer('copilot-cli', 'preToolUse', 'line', input).stdout), { additionalContext: 'line', modifiedArgs: input });
    // Gemini CLI ignores updatedInput and applies hookSpecificOutput.tool_input.
    assert.deepEqual(JSON.parse(passAnswer('vscode', 'BeforeTool', undefined, input, 'gemini').stdout), { hookSpecificOutput: { tool_input: input } });
    // Codex applies a rewrite only with `allow`: the allow carries the rewrite.
    assert.deepEqual(JSON.parse(passAnswer('vscode', 'PreToolUse', undefined, input, 'codex').stdout), { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: input } });
  });
});

describe('Stop answers per agent', () => {
  it('Codex gets only the fields it knows; VS Code, Claude Code and the Copilot CLI get both forms in one answer', () => {
    assert.deepEqual(JSON.parse(blockStopAnswer('checks fail', 'codex').stdout), { decision: 'block', reason: 'checks fail' });
    assert.deepEqual(JSON.parse(blockStopAnswer('checks fail').stdout), {
      decision: 'block', reason: 'checks fail', hookSpecificOutput: { hookEventName: 'Stop', decision: 'block', reason: 'checks fail' },
    });
  });

  it('the input tells Codex (turn_id) and Claude Code (permission_mode) apart', () => {
    assert.equal(parseHookInput(JSON.stringify({ hook_event_name: 'Stop', turn_id: 't1', session_id: 's' }), 'Stop', '/w').agent, 'codex');
    assert.equal(parseHookInput(JSON.stringify({ hook_event_name: 'Stop', permission_mode: 'default', session_id: 's' }), 'Stop', '/w').agent, 'claude-code');
    assert.equal(parseHookInput(JSON.stringify({ hook_event_name: 'Stop', session_id: 's' }), 'Stop', '/w').agent, undefined);
  });
});
