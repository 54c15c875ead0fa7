/** Codex's tool inputs (0.169) as Alfred's gate reads them, and Codex's answers. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gateToolInput, parseHookInput } from '../../../../src/core/integrations/hooks/input';
import { passAnswer } from '../../../../src/core/integrations/hooks/output';
import { argvLine, toolCall } from '../../../../src/core/rules/policy/toolCall';
import { detectSandbox } from '../../../../src/core/sandbox/index';
import { quoteAlways } from '../../../../src/core/sandbox/wrap';
import { makeEnv } from '../../harness/helpers';

const codex = (tool: string, toolInput: unknown) => parseHookInput(JSON.stringify({
  hook_event_name: 'PreToolUse', session_id: 's', turn_id: 't1', permission_mode: 'default', model: 'gpt-5.1-codex', cwd: '/w', tool_name: tool, tool_input: toolInput,
}), 'PreToolUse', '/w');

const PATCH = '*** Begin Patch\n*** Delete File: .codex/hooks.json\n*** End Patch\n';

describe('Codex input', () => {
  it('apply_patch: the patch text Codex sends under `command` is where the edit rules read it', () => {
    const input = codex('apply_patch', { command: PATCH });
    assert.equal(input.agent, 'codex');
    assert.deepEqual(input.toolInput, { command: PATCH }, 'kept as sent');
    assert.deepEqual(gateToolInput(input), { command: PATCH, input: PATCH });
    assert.deepEqual(toolCall('apply_patch', gateToolInput(input)).paths, ['.codex/hooks.json']);
  });

  it('apply_patch under `command` is read even when the input does not say it is Codex\'s', () => {
    assert.deepEqual(toolCall('apply_patch', { command: PATCH }).paths, ['.codex/hooks.json']);
  });

  it('patch file lines Codex reads trimmed: indented, spaced, with CR line ends', () => {
    assert.deepEqual(toolCall('apply_patch', { command: '*** Begin Patch\n   *** Delete File: a\n***  Update File : b \r\n\t*** Add File: c\r\n' }).paths, ['a', 'b', 'c']);
  });

  it('exec_command: a string, an argument vector (quoted back into one line), or `cmd`', () => {
    assert.equal(toolCall('exec_command', gateToolInput(codex('exec_command', { command: 'ls -la' }))).command, 'ls -la');
    const argv = toolCall('exec_command', gateToolInput(codex('exec_command', { command: ['bash', '-lc', 'echo {} > .vscode/settings.json'] })));
    assert.equal(argv.command, `bash -lc 'echo {} > .vscode/settings.json'`);
    assert.equal(argv.category, 'shell');
    assert.equal(argv.newShell, true);
    assert.equal(toolCall('exec_command', gateToolInput(codex('exec_command', { cmd: 'rm -rf .codex' }))).command, 'rm -rf .codex');
    assert.equal(toolCall('exec_command', { cmd: 'rm -rf .codex' }).command, 'rm -rf .codex', 'read whoever sends it');
  });

  it('Codex\'s other tools: write_stdin feeds a running command (no new one), update_plan is no shell', () => {
    assert.deepEqual([toolCall('write_stdin', {}).category, toolCall('write_stdin', {}).newShell], ['shell', false]);
    assert.equal(toolCall('update_plan', { plan: [] }).category, 'other');
    assert.equal(toolCall('shell', { command: ['ls'] }).category, 'shell');
  });

  it('a shell line holding a patch names the patch\'s files (Codex applies `apply_patch <<EOF` itself)', () => {
    assert.deepEqual(toolCall('exec_command', { command: `apply_patch <<'EOF'\n${PATCH}EOF` }).paths, ['.codex/hooks.json']);
  });

  it('argvLine quotes what a shell would split or expand', () => {
    assert.equal(argvLine(['env', 'ALFRED_ROLE=admin', 'claude', '-p', 'a b', "it's", '~/x']), `env ALFRED_ROLE=admin claude -p 'a b' 'it'\\''s' '~/x'`);
  });
});

describe('Codex answers', () => {
  it('a rewrite carries permissionDecision allow, which Codex requires with updatedInput', () => {
    assert.deepEqual(JSON.parse(passAnswer('vscode', 'PreToolUse', undefined, { command: 'sandboxed' }, 'codex').stdout), {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'sandboxed' } },
    });
  });

  it('no rewrite, no allow (Codex rejects a bare allow)', () => {
    assert.deepEqual(JSON.parse(passAnswer('vscode', 'PreToolUse', 'line', undefined, 'codex').stdout), {
      hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'line' },
    });
    assert.equal(passAnswer('vscode', 'PreToolUse', undefined, undefined, 'codex').stdout, '{}');
  });
});

describe('Codex\'s shell through the hook', () => {
  const sandboxed = detectSandbox().kind !== 'none';
  it('its command, a string or an argument vector, comes back in the kernel sandbox in the same shape, with the allow Codex needs', { skip: !sandboxed && 'no kernel sandbox here' }, async () => {
    const env = makeEnv();
    const ask = async (toolInput: Record<string, unknown>) => JSON.parse((await env.hook('PreToolUse', {
      hook_event_name: 'PreToolUse', session_id: 's', turn_id: 't', permission_mode: 'default', cwd: env.root, tool_name: 'exec_command', tool_input: toolInput,
    })).stdout) as { hookSpecificOutput: { permissionDecision: string; updatedInput: Record<string, unknown> } };
    const line = await ask({ command: 'touch x', workdir: env.root });
    assert.equal(line.hookSpecificOutput.permissionDecision, 'allow');
    assert.match(line.hookSpecificOutput.updatedInput.command as string, /bwrap|sandbox-exec|alfred-sandbox/);
    assert.equal(line.hookSpecificOutput.updatedInput.workdir, env.root, 'the rest of the input kept');
    const argv = await ask({ command: ['bash', '-lc', 'touch x'] });
    const rewritten = argv.hookSpecificOutput.updatedInput.command as string[];
    assert.deepEqual(rewritten.slice(0, 2), ['/bin/sh', '-c']);
    assert.match(rewritten[2]!, /bwrap|sandbox-exec|alfred-sandbox/);
    assert.ok(rewritten[2]!.endsWith(` ${quoteAlways(`bash -lc 'touch x'`)}`), `the vector quoted into the sandbox's line: ${rewritten[2]}`);
    const cmd = await ask({ cmd: 'touch x' });
    assert.match(cmd.hookSpecificOutput.updatedInput.cmd as string, /bwrap|sandbox-exec|alfred-sandbox/);
    assert.equal(cmd.hookSpecificOutput.updatedInput.command, undefined, 'the key Codex sent, no other');
  });
});
