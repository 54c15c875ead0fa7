import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { alfred, harness } from '../helpers';

suite('Activation', () => {
  test('activates on a workspace and governs it', async () => {
    const api = await alfred();
    const h = api.harness();
    assert.ok(h, 'a harness for the open folder');
    assert.equal(h.workspaceFolder, vscode.workspace.workspaceFolders?.[0]?.uri.fsPath);
  });

  test('registers every command of the palette', async () => {
    await alfred();
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['alfred.switchRole', 'alfred.showBudget', 'alfred.resetBudget', 'alfred.openEventLog', 'alfred.showRoles', 'alfred.openDashboard']) {
      assert.ok(commands.includes(id), `${id} is registered`);
    }
  });

  test('registers the six ctx_* language model tools', async () => {
    await alfred();
    const names = vscode.lm.tools.map((t) => t.name);
    for (const n of ['ctx_read', 'ctx_search', 'ctx_tree', 'ctx_edit', 'ctx_shell', 'ctx_session']) assert.ok(names.includes(n), `${n} is registered`);
  });

  test('loads the built-in roles and the sample workspace\'s project role', async () => {
    const h = await harness();
    const { roles } = h.roles();
    for (const n of ['coder', 'reviewer', 'debugger', 'ops', 'admin']) assert.equal(roles.get(n)?.source, 'builtin');
    const auditor = roles.get('security-auditor');
    assert.equal(auditor?.source, 'project');
    assert.equal(auditor?.inherits, 'reviewer');
    assert.equal(auditor?.limits.maxCostUsd, 2);
  });
});
