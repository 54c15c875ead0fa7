import * as vscode from 'vscode';
import { governedAgent } from '../../core/governance/agents';
import * as os from 'node:os';
import { inForceContext, trustChange } from '../../core/governance/inForceAll';
import { copilotHookFile } from '../../core/hooks/install';
import { confirmAndWrite, type FileChange } from '../config/confirmAndWrite';
import { hookFilePath } from '../hooks/hookFiles';
import { ensureLauncher } from '../hooks/launcher';
import { userSettingsFile } from '../config/settingsFiles';
import { otlpEndpoint, userSettingsWithExport } from '../usage/copilotOtelSettings';
import type { AlfredCommand } from './command';

/**
 * Alfred: Govern Copilot Agent Sessions — writes `.github/hooks/alfred.json` (read by Copilot in
 * VS Code and by the Copilot CLI) through the write pipeline, so every tool call of their agents
 * goes through Alfred's gate. It also offers, in the same diff, to turn on Copilot's OpenTelemetry
 * export towards Alfred (user settings), without which Copilot's model spend cannot be measured.
 */
export const governCopilot: AlfredCommand = {
  id: governedAgent('copilot').commands.govern,
  async run({ host, extension }) {
    const harness = host.require();
    ensureLauncher(extension.extensionUri);
    const files: FileChange[] = [{ path: hookFilePath(harness.workspaceFolder, 'copilot'), newText: copilotHookFile() }];
    const settingsFile = userSettingsFile(extension);
    const exportEdit = userSettingsWithExport(settingsFile);
    let exportAdded = false;
    if (exportEdit) {
      const both = vscode.l10n.t('Hooks and usage export');
      const hooksOnly = vscode.l10n.t('Hooks only');
      const answer = await vscode.window.showInformationMessage(
        vscode.l10n.t('Also let Copilot report its model usage to Alfred, so its real spend counts against the budget?'),
        {
          modal: true,
          detail: vscode.l10n.t('This turns on Copilot\'s OpenTelemetry export to {0} (Alfred, on this machine) in your user settings. Prompts and answers are not exported. Copilot reads this setting when it starts: reload the window afterwards.', otlpEndpoint()),
        },
        both, hooksOnly,
      );
      if (answer === undefined) return false;
      if (answer === both) {
        files.push({ path: settingsFile, newText: exportEdit.newText });
        exportAdded = true;
      }
    }
    // The Copilot CLI runs the repository's hooks only in a folder it trusts: its entry, in the same diff.
    const trust = trustChange('copilot-cli', inForceContext(harness.workspaceFolder, os.homedir(), process.env));
    if (trust) files.push({ path: trust.file, newText: trust.newText });
    const written = await confirmAndWrite(host, {
      files,
      reason: exportAdded ? 'govern Copilot agent sessions and measure their model usage' : 'govern Copilot agent sessions',
      title: vscode.l10n.t('Govern Copilot agent sessions with Alfred\'s hooks'),
    });
    // The export settings are left to the file: Copilot reads them only when it starts, and the
    // dashboard reads the file too. Pushing them into this window as well (config.update) made
    // code-server miss them at times, and reload its whole configuration for nothing.
    if (written) {
      const governed = vscode.l10n.t('Copilot agent sessions in this workspace now run under role {0}. Every tool call goes through Alfred.', harness.activeRole().role.name);
      if (exportAdded) {
        const reload = vscode.l10n.t('Reload Window');
        void vscode.window.showInformationMessage(`${governed} ${vscode.l10n.t('Reload the window so Copilot starts exporting its usage.')}`, reload).then((choice) => {
          if (choice === reload) void vscode.commands.executeCommand('workbench.action.reloadWindow');
        });
      } else {
        void vscode.window.showInformationMessage(governed);
      }
    }
    host.refresh();
    return written;
  },
};
