import * as vscode from 'vscode';
import { copilotHookFile } from '../../core/hooks/install';
import { confirmAndWrite } from '../config/confirmAndWrite';
import { hookFilePath } from '../hooks/hookFiles';
import { ensureLauncher } from '../hooks/launcher';
import type { AlfredCommand } from './command';

/**
 * Alfred: Govern Copilot Agent Sessions — writes `.github/hooks/alfred.json` (read by Copilot in
 * VS Code and by the Copilot CLI) through the write pipeline, so every tool call of their agents
 * goes through Alfred's gate.
 */
export const governCopilot: AlfredCommand = {
  id: 'alfred.governCopilot',
  async run({ host, extension }) {
    const harness = host.require();
    ensureLauncher(extension.extensionUri);
    const written = await confirmAndWrite(host, {
      files: [{ path: hookFilePath(harness.workspaceFolder, 'copilot'), newText: copilotHookFile() }],
      reason: 'govern Copilot agent sessions',
      title: vscode.l10n.t('Govern Copilot agent sessions with Alfred\'s hooks'),
    });
    if (written) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Copilot agent sessions in this workspace now run under role {0}. Every tool call goes through Alfred.', harness.activeRole().role.name));
    }
    host.refresh();
    return written;
  },
};
