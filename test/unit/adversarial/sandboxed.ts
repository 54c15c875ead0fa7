/** Running what a hook rewrote, as the agent's terminal would: the line, in the workspace, in a POSIX shell. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { detectSandbox } from '../../../src/core/sandbox/index';

export function sandboxAvailable(): boolean {
  return detectSandbox().kind !== 'none';
}

/**
 * Runs the rewritten terminal command (or task's: create_and_run_task's `task.command`, its arguments
 * in it); it must name the sandbox, and whatever it tried is over when it returns.
 */
export function runSandboxedAnswer(updatedInput: Record<string, unknown>, workspace: string, _root: string): void {
  const task = updatedInput.task as Record<string, unknown> | undefined;
  if (task) assert.deepEqual([task.type, task.args], ['shell', undefined], 'a shell task whose arguments are in its command');
  const line = task ? task.command : updatedInput.command;
  assert.equal(typeof line, 'string');
  assert.match(line as string, /alfred-sandbox|bwrap|sandbox-exec/, 'the command runs in the kernel sandbox');
  spawnSync('/bin/sh', ['-c', line as string], { cwd: workspace, env: process.env, encoding: 'utf8', timeout: 30_000 });
}
