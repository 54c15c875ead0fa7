import * as vscode from 'vscode';
import { governedAgent } from '../../core/governance/agents';
import { hasCodexHooks, withoutCodexHooks } from '../../core/hooks/install';
import { confirmAndWrite } from '../config/confirmAndWrite';
import { hookFilePath, readIfExists } from '../hooks/hookFiles';
import type { AlfredCommand } from './command';

/** Alfred: Stop Governing Codex — removes only Alfred's entries from `.codex/hooks.json` (the file goes when nothing else is left). */
export const stopGoverningCodex: AlfredCommand = {
  id: governedAgent('codex').commands.stop,
  async run({ host }) {
    const file = hookFilePath(host.require().workspaceFolder, 'codex');
    const text = readIfExists(file);
    if (!hasCodexHooks(text)) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Codex is not governed by Alfred in this workspace.'));
      return false;
    }
    const rest = withoutCodexHooks(text ?? '');
    const written = await confirmAndWrite(host, {
      files: [{ path: file, newText: rest === '' ? null : rest }],
      reason: 'stop governing Codex sessions',
      title: vscode.l10n.t('Stop governing Codex sessions'),
    });
    host.refresh();
    return written;
  },
};
