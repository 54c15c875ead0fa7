/** A tool call is read once where it enters: its name looked up once, its input parsed once, whatever rules then read it. */
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { governedCall } from '../../../../src/core/harness/governedCall';
import { categoryLookups } from '../../../../src/core/rules/vocabulary/categories';
import { MAX_INPUT_DEPTH } from '../../../../src/core/rules/policy/inputShape';
import { toolCall } from '../../../../src/core/rules/policy/toolCall';
import { makeEnv } from '../../harness/helpers';

function lookupsDuring<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const before = categoryLookups.count;
  return fn().then((value) => [value, categoryLookups.count - before]);
}

describe('toolCall', () => {
  it('reads name, category, input, command, folder and paths', () => {
    const shell = toolCall(' execute/runInTerminal ', '{"command":"git status","cwd":"sub"}');
    assert.deepEqual(shell, {
      name: 'execute/runInTerminal', base: 'runInTerminal', category: 'shell', newShell: true, startsSubagent: false,
      input: { command: 'git status', cwd: 'sub' }, paths: [], command: 'git status', cwd: 'sub', fingerprint: shell.fingerprint,
    });
    assert.deepEqual(toolCall('multi_replace_string_in_file', { replacements: [{ filePath: 'a.ts' }, { filePath: 'tests/b.ts' }] }).paths, ['a.ts', 'tests/b.ts']);
    assert.deepEqual(toolCall('apply_patch', '*** Begin Patch\n*** Update File: src/x.ts\n*** End Patch').paths, ['src/x.ts']);
    assert.equal(toolCall('memory', { command: 'view' }).command, undefined, 'a sub-command, not a shell command');
    assert.equal(toolCall('runSubagent', { prompt: 'x' }).startsSubagent, true);
    assert.equal(toolCall(42).name, '');
  });

  it('refuses a deep input before reading it: no paths, no command, one fingerprint for every refused shape', () => {
    let deep: unknown = { command: 'rm -rf tests' };
    for (let i = 0; i < MAX_INPUT_DEPTH + 1; i++) deep = { filePath: 'tests/a.ts', x: deep };
    const edit = toolCall('create_file', deep);
    assert.equal(edit.badShape, `the tool input is nested more than ${MAX_INPUT_DEPTH} levels deep`);
    assert.deepEqual(edit.paths, []);
    assert.equal(toolCall('create_file', { x: deep }).fingerprint, edit.fingerprint);
  });

  it('one category lookup and one JSON parse per call, through a hook\'s decision, its charge and a governed call', async (t) => {
    const env = makeEnv({ protectedGlobs: () => ['tests/**'] });
    const args = '{"command":"npm test","cwd":"."}';
    const parse = mock.method(JSON, 'parse');
    t.after(() => parse.mock.restore());
    const parsesOf = (text: string): number => parse.mock.calls.filter((c) => c.arguments[0] === text).length;

    // The Copilot CLI sends its arguments as JSON text: read by the hook input, then never again.
    const [pre, preLookups] = await lookupsDuring(() => env.hook('preToolUse', { toolName: 'bash', toolArgs: args }));
    assert.doesNotMatch(pre.stdout, /deny/);
    assert.equal(preLookups, 1, 'PreToolUse: the gate, the sandbox rule, the shell charge and the runaway guard share one lookup');
    assert.equal(parsesOf(args), 1);

    const [, postLookups] = await lookupsDuring(() => env.hook('postToolUse', { toolName: 'bash', toolArgs: args, toolResult: 'ok' }));
    assert.equal(postLookups, 1, 'PostToolUse (another process): one lookup for the charge');

    const text = '{"path":"tests/a.ts","oldText":"a","newText":"b"}';
    const [refused, editLookups] = await lookupsDuring(() => governedCall(env.harness, toolCall('ctx_edit', text), { source: 'chat' }, async () => ({ output: '', value: 0 })));
    assert.equal(refused.kind, 'refused');
    assert.equal(editLookups, 1, 'an edit refused for its path: one lookup');
    assert.equal(parsesOf(text), 1, 'its input parsed once, where the call was read');
  });
});
