import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { alfred, freshSession, invoke, until, workspaceFile, writeRole } from '../helpers';

suite('Commands', () => {
  test('Switch Role with a name switches, persists and starts a fresh session', async () => {
    const h = await freshSession('coder');
    await invoke('ctx_read', { path: 'README.md' });
    const oldSession = h.budget().session;
    await vscode.commands.executeCommand('alfred.switchRole', 'debugger');
    assert.equal(h.activeRole().role.name, 'debugger');
    assert.notEqual(h.budget().session, oldSession);
    assert.equal(h.budget().status.dimensions.tokens.used, 0);
    const changed = h.events({ types: ['RoleChanged'] }).events.at(-1);
    assert.equal(changed?.from, 'coder');
    assert.equal(changed?.to, 'debugger');
  });

  test('Reset Budget zeroes usage and logs BudgetReset', async () => {
    const h = await freshSession('coder');
    await invoke('ctx_shell', { command: 'echo hi' });
    assert.equal(h.budget().status.dimensions.shell.used, 1);
    assert.equal(await vscode.commands.executeCommand('alfred.resetBudget', { confirm: false }), true);
    assert.equal(h.budget().status.dimensions.shell.used, 0);
    assert.equal(h.events({ types: ['BudgetReset'] }).events.at(-1)?.reason, 'user');
  });

  test('Open Event Log opens the JSONL log', async () => {
    const h = await freshSession('coder');
    const opened = await vscode.commands.executeCommand<string>('alfred.openEventLog');
    assert.equal(opened, h.logPath);
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, h.logPath);
  });

  test('a broken role file is reported with its path and key; the other roles still load', async () => {
    const file = writeRole('broken', '[role]\nname = "broken"\nshell_policy = "sometimes"\n');
    const api = await alfred();
    try {
      const problem = await until('the problem to be reported', () => api.harness()?.roles().problems.find((p) => p.path === file));
      assert.equal(problem.key, 'role.shell_policy');
      assert.ok(api.harness()?.roles().roles.has('security-auditor'));
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  test('the user\'s alfred.role setting picks the role when nothing else does; the workspace\'s may lower it, never raise it', async () => {
    const h = await freshSession('coder');
    // Clear the runtime switch so the setting is the deciding source.
    fs.rmSync(`${h.stateDir}/runtime.json`, { force: true });
    const config = vscode.workspace.getConfiguration('alfred');
    await config.update('role', 'debugger', vscode.ConfigurationTarget.Global);
    try {
      await until('the user setting to apply', () => h.activeRole().role.name === 'debugger');
      assert.equal(h.activeRole().from, 'setting');
      await config.update('role', 'admin', vscode.ConfigurationTarget.Workspace);
      await until('the workspace setting to be weighed', () => h.activeRole().problem !== undefined);
      assert.equal(h.activeRole().role.name, 'debugger', 'a repository setting never raises authority');
      assert.match(h.activeRole().problem ?? '', /^The workspace's settings ask for role admin, which has more authority than debugger/);
      // reviewer has no more of anything than debugger (ops would not do: reviewer has more context tokens).
      await config.update('role', 'reviewer', vscode.ConfigurationTarget.Workspace);
      await until('the lower workspace setting to apply', () => h.activeRole().role.name === 'reviewer');
    } finally {
      await config.update('role', undefined, vscode.ConfigurationTarget.Workspace);
      await config.update('role', undefined, vscode.ConfigurationTarget.Global);
      fs.rmSync(workspaceFile('.vscode/settings.json'), { force: true });
    }
  });
});
