import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { alfred, EXTENSION_ID, freshSession, harness, invoke, textOf } from '../helpers';

/** The modules this extension host has loaded whose path names the o200k tokenizer. */
const tokenizerModules = (): string[] => Object.keys(require.cache).filter((k) => k.includes('o200k'));

/** The marks VS Code's extension host sets around loading and activating an extension (vs/base/common/performance). */
function activationMarks(id: string): Record<'willLoad' | 'didLoad' | 'willActivate' | 'didActivate', number> | undefined {
  const perf = (globalThis as { MonacoPerformanceMarks?: { getMarks(): { name: string; startTime: number }[] } }).MonacoPerformanceMarks;
  const at = (what: string) => perf?.getMarks().find((m) => m.name === `code/extHost/${what}/${id}`)?.startTime;
  const [willLoad, didLoad, willActivate, didActivate] = ['willLoadExtensionCode', 'didLoadExtensionCode', 'willActivateExtension', 'didActivateExtension'].map(at);
  if (willLoad === undefined || didLoad === undefined || willActivate === undefined || didActivate === undefined) return undefined;
  return { willLoad, didLoad, willActivate, didActivate };
}

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

  // First of all the suites: nothing may have counted tokens yet.
  test('the tokenizer is loaded only when a count is asked for, from the one file that ships it', async () => {
    await alfred();
    assert.deepEqual(tokenizerModules(), [], 'activation loaded the tokenizer');
    const h = await freshSession('coder');
    assert.deepEqual(tokenizerModules(), [], 'a role switch and a reset count nothing');

    const result = await invoke('ctx_read', { path: 'README.md' });
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const shipped = fs.realpathSync(path.join(ext.extensionPath, 'dist', 'cli', 'o200k_base.cjs'));
    assert.deepEqual(tokenizerModules(), [shipped]);
    const tokenizer = require.cache[shipped]!.exports as { countTokens(text: string): number };
    assert.equal(h.budget().status.dimensions.tokens.used, tokenizer.countTokens(textOf(result)));
  });

  // Printed (in the test's title, which the runner shows), not asserted: a timed test would be flaky.
  test('activation time', function (this: Mocha.Context) {
    const marks = activationMarks(EXTENSION_ID);
    assert.ok(marks, 'this VS Code sets no activation marks for Alfred');
    const load = marks.didLoad - marks.willLoad;
    const activate = marks.didActivate - marks.willActivate;
    const total = marks.didActivate - marks.willLoad;
    const measured = `${total} ms from loading dist/extension.js to activate() resolved: load ${load} ms, activate() ${activate} ms`;
    console.log(`Alfred's activation: ${measured}`);
    this.test!.title += ` — ${measured}`;
  });
});
