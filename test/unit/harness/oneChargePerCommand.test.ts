/** One command, one charge: a terminal command a hook allowed and charged is not charged again when the terminal reports it. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeEnv } from './helpers';

describe('one charge per terminal command', () => {
  it('Copilot\'s run_in_terminal, charged by PreToolUse, is not charged again by the terminal observer; a person\'s command is', async () => {
    const env = makeEnv();
    const shell = () => env.harness.budget().status.dimensions.shell.used;
    const answer = await env.hook('PreToolUse', { tool_name: 'run_in_terminal', tool_input: { command: 'npm  test', explanation: 'x', goal: 'x', mode: 'sync' } });
    assert.equal(shell(), 1);
    // What the terminal shows: the command as VS Code runs it (rewritten into the sandbox where there is one).
    const shown = (answer.json as { hookSpecificOutput?: { updatedInput?: { command?: string } } }).hookSpecificOutput?.updatedInput?.command ?? 'npm test';
    const seen = await env.harness.observeShell({ command: ` ${shown} `, exitCode: 0, source: 'terminal:bash' });
    assert.equal(shell(), 1, 'the terminal run of the same command (whitespace aside) is the hook\'s charge');
    assert.equal(seen.violation, false);
    const [execution] = env.harness.events({ types: ['ShellExecution'] }).events;
    assert.deepEqual([execution?.charge, execution?.chargedBy], [{ shell: 0 }, 'hook']);
    await env.harness.observeShell({ command: 'npm test', exitCode: 0, source: 'terminal:bash' });
    assert.equal(shell(), 2, 'typed again by a person: a new command, charged once');
    await env.harness.observeShell({ command: 'ls', exitCode: 0, source: 'terminal:bash' });
    assert.equal(shell(), 3);
  });

  it('a refused call leaves nothing to claim: the same command typed later is charged', async () => {
    const env = makeEnv({ env: { ALFRED_ROLE: 'reviewer' } });
    const answer = await env.hook('PreToolUse', { tool_name: 'run_in_terminal', tool_input: { command: 'make' } });
    assert.match(answer.stdout, /"permissionDecision":"deny"/);
    assert.equal(env.harness.budget().status.dimensions.shell.used, 0);
    const seen = await env.harness.observeShell({ command: 'make', exitCode: 0, source: 'terminal:bash' });
    assert.equal(env.harness.budget().status.dimensions.shell.used, 1);
    assert.equal(seen.violation, true, 'reviewer denies shell: a command that ran anyway is a violation');
  });
});
