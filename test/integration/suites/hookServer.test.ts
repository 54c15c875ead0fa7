import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { defaultHookSocketPath } from '../../../src/core/integrations/hooks/server';
import { EXTENSION_ID, freshSession, until } from '../helpers';

/** The built command line as an agent's hook runs it, with this extension host's HOME and ALFRED_HOME. */
function hook(event: string, input: object, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, 'the extension is installed');
  const cli = path.join(extension.extensionPath, 'dist', 'cli', 'alfred.cjs');
  return new Promise((resolve) => {
    // Asynchronously: the server answering it runs in this very process.
    const child = execFile(process.execPath, [cli, 'hook', event], {
      cwd, encoding: 'utf8', env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', ALFRED_HOOK_DEBUG: '1', ALFRED_ROLE: '', LEAN_CTX_ROLE: '' },
    }, (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, stdout, stderr }));
    child.stdin?.end(JSON.stringify(input));
  });
}

suite('The hook server in the extension host', () => {
  test('answers `alfred hook PreToolUse` from this process, and the call is in the harness log', async () => {
    const h = await freshSession('reviewer');
    const socket = defaultHookSocketPath();
    if (process.platform !== 'win32') await until('the hook server\'s socket', () => fs.existsSync(socket));
    const before = h.events({ types: ['ToolCall'] }).events.length;

    const r = await hook('PreToolUse', { hook_event_name: 'PreToolUse', session_id: 'agent-1', cwd: h.workspaceFolder, tool_name: 'run_in_terminal', tool_input: { command: 'rm -rf dist' } }, h.workspaceFolder);

    assert.equal(r.code, 0, r.stderr);
    // ALFRED_HOOK_DEBUG: the launcher says who answered; the pid is this extension host's.
    assert.equal(r.stderr, `alfred hook: answered by the hook server (pid ${process.pid})\n`);
    const answer = JSON.parse(r.stdout) as { hookSpecificOutput: Record<string, unknown> };
    assert.equal(answer.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(String(answer.hookSpecificOutput.permissionDecisionReason), /^Alfred \(role reviewer\): Role reviewer does not run shell commands/);
    const calls = h.events({ types: ['ToolCall'] }).events.slice(before);
    assert.deepEqual(calls.map((e) => [e.tool, e.decision, e.source, e.role]), [['run_in_terminal', 'deny', 'hook:PreToolUse', 'reviewer']]);
  });

  test('a call the role allows is let through and charged', async () => {
    const h = await freshSession('coder');
    if (process.platform !== 'win32') await until('the hook server\'s socket', () => fs.existsSync(defaultHookSocketPath()));
    const r = await hook('PreToolUse', { cwd: h.workspaceFolder, tool_name: 'run_in_terminal', tool_input: { command: 'npm test' } }, h.workspaceFolder);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /answered by the hook server/);
    // Let through (no decision: VS Code's own confirmation stays), the command rewritten into the kernel sandbox where there is one.
    const answer = JSON.parse(r.stdout) as { hookSpecificOutput?: { permissionDecision?: string; updatedInput?: { command?: string } } };
    assert.equal(answer.hookSpecificOutput?.permissionDecision, undefined);
    if (answer.hookSpecificOutput) assert.match(answer.hookSpecificOutput.updatedInput?.command ?? '', /alfred-sandbox [0-9a-f]{16} 'npm test'$/);
    else assert.equal(r.stdout, '{}\n');
    assert.equal(h.budget().status.dimensions.shell.used, 1);
  });
});
