import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatOf, HookInputError, parseHookInput } from '../../../../src/core/integrations/hooks/input';

const parse = (data: unknown, event = 'PreToolUse', cwd = '/fallback') =>
  parseHookInput(typeof data === 'string' ? data : JSON.stringify(data), event, cwd);

describe('parseHookInput: spellings', () => {
  it('reads the snake_case input of VS Code and Claude Code', () => {
    const input = parse({
      hook_event_name: 'PreToolUse', session_id: 's1', cwd: '/ws', tool_name: 'run_in_terminal',
      tool_input: { command: 'ls' }, model: 'gpt-5', stop_hook_active: true,
    });
    assert.deepEqual(input, {
      event: 'PreToolUse', format: 'vscode', sessionId: 's1', cwd: '/ws', tool: 'run_in_terminal',
      toolInput: { command: 'ls' }, toolResponse: undefined, prompt: undefined, model: 'gpt-5', stopHookActive: true,
    });
  });

  it('reads the camelCase input of the docs and the Copilot CLI', () => {
    const input = parse({ hookEventName: 'PreToolUse', sessionId: 's2', cwd: '/ws', toolName: 'Bash', toolInput: { command: 'pwd' } });
    assert.equal(input.event, 'PreToolUse');
    assert.equal(input.sessionId, 's2');
    assert.equal(input.tool, 'Bash');
    assert.deepEqual(input.toolInput, { command: 'pwd' });
  });

  it('reads toolArgs as an object and as a JSON string', () => {
    assert.deepEqual(parse({ toolName: 'bash', toolArgs: { command: 'ls' } }, 'preToolUse').toolInput, { command: 'ls' });
    assert.deepEqual(parse({ toolName: 'bash', toolArgs: '{"command":"ls -la"}' }, 'preToolUse').toolInput, { command: 'ls -la' });
  });

  it('parses tool_input and toolInput when they are JSON strings, and keeps a non-JSON string as is', () => {
    assert.deepEqual(parse({ tool_name: 'Edit', tool_input: '{"file_path":"a.ts"}' }).toolInput, { file_path: 'a.ts' });
    assert.deepEqual(parse({ toolName: 'Edit', toolInput: '{"path":"b.ts"}' }).toolInput, { path: 'b.ts' });
    assert.equal(parse({ tool_name: 'apply_patch', tool_input: '*** Update File: a.ts' }).toolInput, '*** Update File: a.ts');
  });

  it('falls back to the given folder when cwd is missing or empty', () => {
    assert.equal(parse({ tool_name: 'read_file' }).cwd, '/fallback');
    assert.equal(parse({ tool_name: 'read_file', cwd: '' }).cwd, '/fallback');
  });

  it('takes the event from the command line when the input does not name it', () => {
    assert.equal(parse({ tool_name: 'read_file' }, 'PostToolUse').event, 'PostToolUse');
  });

  it('reads tool_response as a string, and serializes an object or array response', () => {
    assert.equal(parse({ tool_name: 'read_file', tool_response: 'file text' }, 'PostToolUse').toolResponse, 'file text');
    assert.equal(parse({ tool_name: 'Read', tool_response: { content: 'x', lines: 1 } }, 'PostToolUse').toolResponse, '{"content":"x","lines":1}');
    assert.equal(parse({ toolName: 'view', toolResult: ['a'] }, 'postToolUse').toolResponse, '["a"]');
    assert.equal(parse({ tool_name: 'Read', tool_response: null }, 'PostToolUse').toolResponse, undefined);
    assert.equal(parse({ tool_name: 'Read' }, 'PostToolUse').toolResponse, undefined);
  });

  it('leaves the tool undefined when it is missing, empty or not a string', () => {
    assert.equal(parse({}).tool, undefined);
    assert.equal(parse({ tool_name: '' }).tool, undefined);
    assert.equal(parse({ tool_name: 42 }).tool, undefined);
  });
});

describe('parseHookInput: the format follows the event name', () => {
  it('PascalCase is VS Code / Claude Code, camelCase the Copilot CLI', () => {
    assert.equal(formatOf('PreToolUse'), 'vscode');
    assert.equal(formatOf('PostToolUse'), 'vscode');
    assert.equal(formatOf('preToolUse'), 'copilot-cli');
    assert.equal(formatOf('postToolUse'), 'copilot-cli');
    assert.equal(parse({ toolName: 'bash' }, 'preToolUse').format, 'copilot-cli');
  });
});

describe('parseHookInput: bad input', () => {
  const cases: [string, string, RegExp][] = [
    ['empty', '', /PreToolUse: no input on stdin/],
    ['blank', '  \n\t ', /no input on stdin/],
    ['garbage', 'not json {', /stdin is not JSON \(/],
    ['truncated', '{"tool_name": "Bash"', /stdin is not JSON/],
    ['an array', '[{"tool_name":"Bash"}]', /stdin must be a JSON object/],
    ['null', 'null', /stdin must be a JSON object/],
    ['a number', '42', /stdin must be a JSON object/],
    ['a string', '"Bash"', /stdin must be a JSON object/],
  ];
  for (const [name, raw, message] of cases) {
    it(`${name} → HookInputError with a one-line message naming the command`, () => {
      assert.throws(() => parseHookInput(raw, 'PreToolUse', '/ws'), (err: unknown) => {
        assert.ok(err instanceof HookInputError, 'a HookInputError');
        assert.match(err.message, message);
        assert.match(err.message, /^alfred hook PreToolUse: /);
        assert.equal(err.message.includes('\n'), false, 'one line');
        return true;
      });
    });
  }
});
