import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { VSCODE_SANDBOX, VSCODE_SANDBOX_COMMAND, vscodeSandboxOn, vscodeSandboxSettings } from '../../core/sandbox/vscodeSandbox';
import { settingsFileOf, settingsTextWith, vscodeUserSettingsFiles } from '../../core/sandbox/vscodeSettingsFiles';
import { confirmAndWrite, type FileChange } from '../config/confirmAndWrite';
import { userSettingsFile } from '../config/settingsFiles';
import { syncUserSettings } from '../config/syncUserSettings';
import type { AlfredCommand } from './command';

/**
 * Alfred: Put Alfred's Rules in VS Code's Sandbox — writes the active role's protected paths into VS
 * Code's own agent sandbox (`denyWrite`), its network names into VS Code's domain lists, and turns off
 * runs outside that sandbox, in this editor's user settings and in every other editor's here where
 * that sandbox is on (a hook cannot tell which editor runs it: each must hold). Shown as a diff first.
 * It does not turn VS Code's sandbox on: that stays the user's choice. Resolves true when written.
 */
export const configureVscodeSandbox: AlfredCommand = {
  id: VSCODE_SANDBOX_COMMAND,
  async run({ host, extension }) {
    const harness = host.require();
    if (vscode.workspace.getConfiguration().inspect(VSCODE_SANDBOX.enabled)?.defaultValue === undefined) {
      void vscode.window.showInformationMessage(vscode.l10n.t('This VS Code has no agent sandbox ({0}): Alfred\'s sandbox holds every agent\'s commands.', VSCODE_SANDBOX.enabled));
      return false;
    }
    const input = harness.vscodeSandboxInput();
    if (!input) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Alfred plans no sandbox for role {0} here, so it has no rules to put in VS Code\'s.', harness.activeRole().role.name));
      return false;
    }
    const own = userSettingsFile(extension);
    const others = vscodeUserSettingsFiles(harness.env, harness.homeDir)
      .filter((f) => path.resolve(f) !== path.resolve(own) && vscodeSandboxOn(settingsFileOf(f)?.[VSCODE_SANDBOX.enabled]));
    const files: FileChange[] = [];
    let ownValues: Record<string, unknown> = {};
    for (const file of [own, ...others]) {
      const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
      const values = vscodeSandboxSettings(settingsFileOf(file) ?? {}, input);
      if (file === own) ownValues = values;
      if (Object.keys(values).length) files.push({ path: file, newText: settingsTextWith(text, values) });
    }
    const written = files.length > 0 && await confirmAndWrite(host, {
      files, title: vscode.l10n.t('VS Code\'s sandbox'),
      reason: vscode.l10n.t('put the protected paths and the network names of role {0} in VS Code\'s agent sandbox', harness.activeRole().role.name),
    });
    // This window sees them now (code-server does not notice a settings file another process wrote).
    if (written) await syncUserSettings(ownValues);
    const report = harness.vscodeSandbox();
    if (report.holds) void vscode.window.showInformationMessage(vscode.l10n.t('VS Code\'s sandbox holds Alfred\'s rules: it runs Copilot\'s terminal commands, with no sandbox of Alfred\'s inside.'));
    else if (written || files.length === 0) void vscode.window.showWarningMessage(vscode.l10n.t('VS Code\'s sandbox does not hold Alfred\'s rules yet ({0}): Alfred\'s sandbox still holds Copilot\'s terminal commands.', [...report.missing, ...(report.file ? [report.file] : [])].join('; ')));
    return written;
  },
};
