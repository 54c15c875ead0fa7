import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { alfred, EXTENSION_ID } from '../helpers';

suite('Test seams', () => {
  test('are exported because these tests run Alfred in ExtensionMode.Test (installed, it exports nothing)', async () => {
    await alfred();
    const api = vscode.extensions.getExtension(EXTENSION_ID)?.exports as Record<string, unknown> | undefined;
    assert.ok(api, 'exports in test mode');
    assert.equal(typeof api.harness, 'function');
    assert.equal(typeof (api.prompts as { confirm?: unknown }).confirm, 'function');
    assert.equal(typeof (api.confirmations as { review?: unknown }).review, 'function');
    assert.equal(typeof api.writeConfig, 'function');
    assert.equal(typeof api.chat, 'function');
  });
});
