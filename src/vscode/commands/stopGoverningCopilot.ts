import * as vscode from 'vscode';
import { governedAgent } from '../../core/governance/agents';
import { confirmAndWrite } from '../config/confirmAndWrite';
import { hookFilePath, readIfExists } from '../hooks/hookFiles';
import type { AlfredCommand } from './command';

/** Alfred: Stop Governing Copilot — removes `.github/hooks/alfred.json` through the write pipeline. */
export const stopGoverningCopilot: AlfredCommand = {
  id: governedAgent('copilot').commands.stop,
  async run({ host }) {
    const file = hookFilePath(host.require().workspaceFolder, 'copilot');
    if (readIfExists(file) === undefined) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Copilot is not governed by Alfred in this workspace.'));
      return false;
    }
    const written = await confirmAndWrite(host, {
      files: [{ path: file, newText: null }],
      reason: 'stop governing Copilot agent sessions',
      title: vscode.l10n.t('Stop governing Copilot agent sessions'),
    });
    host.refresh();
    return written;
  },
};
