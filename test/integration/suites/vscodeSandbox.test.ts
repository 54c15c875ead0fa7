import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WritePlan } from '../../../src/core/base/config/types';
import { defaultHookSocketPath } from '../../../src/core/integrations/hooks/server';
import { VSCODE_SANDBOX as S } from '../../../src/core/sandbox/vscodeSandbox';
import { alfred, EXTENSION_ID, freshSession, until } from '../helpers';

/** The built command line as VS Code runs a hook, answered by this window's hook server. */
function hook(input: object, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, 'the extension is installed');
  const cli = path.join(extension.extensionPath, 'dist', 'cli', 'alfred.cjs');
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [cli, 'hook', 'PreToolUse'], {
      cwd, encoding: 'utf8', env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', ALFRED_ROLE: '', LEAN_CTX_ROLE: '' },
    }, (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, stdout, stderr }));
    child.stdin?.end(JSON.stringify(input));
  });
}

/** The command Copilot's run_in_terminal would run after Alfred's answer: rewritten into Alfred's sandbox, or undefined (as sent). */
async function answeredCommand(cwd: string): Promise<string | undefined> {
  const r = await hook({ cwd, tool_name: 'run_in_terminal', tool_input: { command: 'npm test', explanation: 'x', goal: 'x', isBackground: false } }, cwd);
  assert.equal(r.code, 0, r.stderr);
  const answer = JSON.parse(r.stdout) as { hookSpecificOutput?: { permissionDecision?: string; updatedInput?: { command?: string } } };
  assert.equal(answer.hookSpecificOutput?.permissionDecision, undefined, r.stdout);
  return answer.hookSpecificOutput?.updatedInput?.command;
}

const config = () => vscode.workspace.getConfiguration();

suite('VS Code\'s own agent sandbox', () => {
  test('this VS Code has the settings Alfred writes, with the defaults Alfred reads', () => {
    const defaults = Object.values(S).map((key) => [key, config().inspect(key)?.defaultValue]);
    assert.deepEqual(defaults, [
      [S.enabled, 'off'], [S.fileSystemLinux, { denyRead: [], allowRead: [], allowWrite: [], denyWrite: [] }],
      [S.fileSystemMac, { denyRead: [], allowRead: [], allowWrite: [], denyWrite: [] }],
      [S.allowNetwork, true], [S.allowUnsandboxed, true], [S.retryWithNetwork, true], [S.allowedDomains, []], [S.deniedDomains, []],
    ]);
  });

  test('the command writes Alfred\'s rules into the user settings; then run_in_terminal is left to VS Code\'s sandbox, and nested again when a protected path is missing', async function () {
    const h = await freshSession('coder');
    if (h.sandboxPlan().kind !== 'sandboxed') this.skip();
    if (process.platform !== 'win32') await until('the hook server\'s socket', () => fs.existsSync(defaultHookSocketPath()));
    const api = await alfred();
    const original = api.confirmations.review;
    const shown: WritePlan[] = [];
    api.confirmations.review = async (_host, plan) => { shown.push(plan); return true; };
    try {
      assert.match(await answeredCommand(h.workspaceFolder) ?? '', /alfred-sandbox [0-9a-f]{16} 'npm test'$/, 'VS Code\'s sandbox off: Alfred\'s');
      await config().update(S.enabled, 'on', vscode.ConfigurationTarget.Global);
      assert.match(await answeredCommand(h.workspaceFolder) ?? '', /alfred-sandbox/, 'on with VS Code\'s defaults: short of Alfred\'s rules');

      assert.equal(await vscode.commands.executeCommand('alfred.configureVscodeSandbox'), true);
      assert.equal(shown.length, 1);
      assert.equal(shown[0]!.files.length, 1, 'this editor\'s user settings only');
      const settingsFile = shown[0]!.files[0]!.path;
      assert.equal(path.basename(settingsFile), 'settings.json');
      const governance = path.join(fs.realpathSync(h.workspaceFolder), '.alfred');
      // VS Code itself reads what was written.
      const linux = await until('VS Code to read the written settings', () => {
        const v = config().get<{ denyWrite?: string[] }>(S.fileSystemLinux);
        return v?.denyWrite?.includes(governance) ? v : undefined;
      });
      assert.deepEqual([config().get(S.allowUnsandboxed), config().get(S.allowNetwork), config().get(S.retryWithNetwork)], [false, false, false]);
      assert.deepEqual(config().get(S.allowedDomains), h.activeRole().role.network?.allow);
      assert.deepEqual(h.vscodeSandbox(), { holds: true });
      assert.equal(await answeredCommand(h.workspaceFolder), undefined, 'left to VS Code\'s sandbox: not rewritten');

      await config().update(S.fileSystemLinux, { ...linux, denyWrite: linux.denyWrite!.filter((p) => p !== governance) }, vscode.ConfigurationTarget.Global);
      // VS Code writes the file itself; the hooks read it from there.
      await until('the settings file to lose the path', () => !h.vscodeSandbox().holds);
      assert.match(await answeredCommand(h.workspaceFolder) ?? '', /alfred-sandbox [0-9a-f]{16} 'npm test'$/);
      const report = h.vscodeSandbox();
      assert.deepEqual(report.holds ? [] : report.missing, [`${S.fileSystemLinux} denyWrite lacks ${governance}`]);
    } finally {
      api.confirmations.review = original;
      for (const key of Object.values(S)) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
