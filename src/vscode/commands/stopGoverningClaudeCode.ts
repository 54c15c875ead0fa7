import * as vscode from 'vscode';
import { governedAgent } from '../../core/governance/agents';
import { hasClaudeHooks, withoutClaudeHooks } from '../../core/hooks/install';
import { confirmAndWrite } from '../config/confirmAndWrite';
import { hookFilePath, readIfExists } from '../hooks/hookFiles';
import type { AlfredCommand } from './command';

/** Alfred: Stop Governing Claude Code — removes only Alfred's entries from `.claude/settings.json`. */
export const stopGoverningClaudeCode: AlfredCommand = {
  id: governedAgent('claude-code').commands.stop,
  async run({ host }) {
    const file = hookFilePath(host.require().workspaceFolder, 'claude-code');
    const text = readIfExists(file);
    if (!hasClaudeHooks(text)) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Claude Code is not governed by Alfred in this workspace.'));
      return false;
    }
    const rest = withoutClaudeHooks(text ?? '');
    const written = await confirmAndWrite(host, {
      files: [{ path: file, newText: rest === '' ? null : rest }],
      reason: 'stop governing Claude Code sessions',
      title: vscode.l10n.t('Stop governing Claude Code sessions'),
    });
    host.refresh();
    return written;
  },
};
