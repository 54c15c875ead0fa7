/** Gemini CLI (0.61.0): its hook file, its input, and answers in the form it reads. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse as parseJsonc } from 'jsonc-parser';
import { canonicalHookEvent } from '../../../../src/core/integrations/hooks/events';
import { gateToolInput, parseHookInput } from '../../../../src/core/integrations/hooks/input';
import { GEMINI_HOOK_EVENTS, hasClaudeHooks, launcherScripts, withGeminiHooks, withoutGeminiHooks } from '../../../../src/core/integrations/hooks/install';
import { askAnswer, blockStopAnswer, denyAnswer, passAnswer } from '../../../../src/core/integrations/hooks/output';
import { toolCall } from '../../../../src/core/rules/policy/toolCall';

type GeminiFile = { hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ type: string; command: string; timeout: number }> }>> };

describe('.gemini/settings.json', () => {
  it('one command hook per event, matcher "" (every tool), timeouts in milliseconds, through the launcher', () => {
    const data = JSON.parse(withGeminiHooks(undefined)) as GeminiFile;
    assert.deepEqual(Object.keys(data.hooks), ['SessionStart', 'BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent']);
    assert.deepEqual(data.hooks.BeforeTool, [{ matcher: '', hooks: [{ type: 'command', command: '"$HOME/.alfred/bin/alfred" hook BeforeTool', timeout: 30000 }] }]);
    assert.equal(data.hooks.AfterAgent![0]!.hooks[0]!.timeout, 600000, 'the acceptance checks run at AfterAgent');
  });

  it('the user\'s settings and hooks stay; installing twice adds nothing; removing leaves only theirs', () => {
    const mine = '{\n  // mine\n  "general": { "vimMode": true },\n  "hooks": { "BeforeTool": [{ "matcher": "write_file", "hooks": [{ "type": "command", "command": "./lint.sh" }] }] }\n}\n';
    const governed = withGeminiHooks(mine);
    assert.ok(governed.includes('// mine'));
    assert.ok(hasClaudeHooks(governed));
    assert.equal(withGeminiHooks(governed), governed);
    const back = withoutGeminiHooks(governed);
    assert.ok(back.includes('// mine'));
    assert.deepEqual(parseJsonc(back), parseJsonc(mine));
    assert.equal(withoutGeminiHooks(withGeminiHooks(undefined)), '');
  });

  it('every event Alfred registers is one alfred hook answers, as the event it stands for', () => {
    assert.deepEqual(GEMINI_HOOK_EVENTS.map((e) => canonicalHookEvent(e)), ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop']);
  });

  it('the launcher sends AfterAgent, like Stop, to the command line (the checks need the agent\'s environment)', () => {
    assert.match(launcherScripts('/node', '/cli.cjs', { bash: true }).posix, /\$2 != Stop && \$2 != agentStop && \$2 != AfterAgent/);
  });
});

describe('Gemini CLI input', () => {
  const gemini = (tool: string, toolInput: unknown, event = 'BeforeTool') => parseHookInput(JSON.stringify({
    session_id: 's', transcript_path: '/t.json', cwd: '/w', hook_event_name: event, timestamp: '2026-12-07T00:00:00Z', tool_name: tool, tool_input: toolInput,
  }), event, '/w');

  it('is told by its event names; its tools are in the category table; dir_path is the folder the command runs in', () => {
    const input = gemini('run_shell_command', { command: 'ls', dir_path: 'sub', description: 'x' });
    assert.equal(input.agent, 'gemini');
    const call = toolCall(input.tool, gateToolInput(input));
    assert.deepEqual([call.category, call.command, call.cwd], ['shell', 'ls', 'sub']);
    assert.deepEqual(toolCall('write_file', { file_path: '.gemini/settings.json', content: '{}' }).paths, ['.gemini/settings.json']);
    assert.deepEqual(toolCall('replace', { file_path: 'a.ts', old_string: 'a', new_string: 'b' }).paths, ['a.ts']);
    assert.equal(toolCall('read_file', { file_path: 'a' }).category, 'read');
    assert.equal(toolCall('list_background_processes', {}).newShell, false);
  });

  it('the event from the command line tells it too (an input without hook_event_name)', () => {
    assert.equal(parseHookInput('{"tool_name":"run_shell_command","tool_input":{"command":"ls"}}', 'BeforeTool', '/w').agent, 'gemini');
  });
});

describe('answers Gemini CLI reads', () => {
  it('a refusal: the top-level decision deny and its reason, nothing else', () => {
    assert.deepEqual(JSON.parse(denyAnswer('vscode', 'PreToolUse', 'no', 'gemini').stdout), { decision: 'deny', reason: 'no' });
  });

  it('a rewrite: hookSpecificOutput.tool_input (it ignores updatedInput); context beside it', () => {
    assert.deepEqual(JSON.parse(passAnswer('vscode', 'PreToolUse', 'line', { command: 'sandboxed' }, 'gemini').stdout), {
      hookSpecificOutput: { tool_input: { command: 'sandboxed' }, additionalContext: 'line' },
    });
    assert.equal(passAnswer('vscode', 'PreToolUse', undefined, undefined, 'gemini').stdout, '{}');
  });

  it('ask: Gemini asks the user itself; keep working at AfterAgent: the top-level block only', () => {
    assert.deepEqual(JSON.parse(askAnswer('vscode', 'PreToolUse', 'sure?', 'gemini').stdout), { decision: 'ask', reason: 'sure?', systemMessage: 'sure?' });
    assert.deepEqual(JSON.parse(blockStopAnswer('checks fail', 'gemini').stdout), { decision: 'block', reason: 'checks fail' });
  });
});
