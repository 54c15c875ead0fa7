import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { alfred, until } from '../helpers';

const editorTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.label.startsWith('Alfred: '));
const closeEditors = () => vscode.window.tabGroups.close(editorTabs());

suite('Role editor commands', () => {
  teardown(closeEditors);

  test('Edit Role on a built-in role offers a new role inheriting from it, and opens nothing when declined', async () => {
    const api = await alfred();
    const original = api.prompts.confirm;
    const asked: string[] = [];
    try {
      api.prompts.confirm = async (message, detail) => { asked.push(`${message} ${detail}`); return false; };
      assert.equal(await vscode.commands.executeCommand('alfred.editRole', 'reviewer'), false);
      assert.match(asked[0]!, /reviewer is a built-in role and cannot be changed\. Create a new role that inherits from reviewer/);
      assert.deepEqual(editorTabs().map((t) => t.label), []);
      api.prompts.confirm = async () => true;
      assert.equal(await vscode.commands.executeCommand('alfred.editRole', 'reviewer'), true);
      await until('the New Role panel', () => editorTabs().find((t) => t.label === 'Alfred: New Role'));
    } finally {
      api.prompts.confirm = original;
    }
  });

  test('Edit Role on a project role opens the form on its file; New Role opens an empty one', async () => {
    assert.equal(await vscode.commands.executeCommand('alfred.editRole', 'security-auditor'), true);
    await until('the Edit Role panel', () => editorTabs().find((t) => t.label === 'Alfred: Edit Role security-auditor'));
    assert.equal(await vscode.commands.executeCommand('alfred.newRole'), true);
    await until('the New Role panel', () => editorTabs().find((t) => t.label === 'Alfred: New Role'));
  });
});
