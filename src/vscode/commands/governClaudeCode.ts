import * as vscode from 'vscode';
import { governedAgent } from '../../core/governance/agents';
import { withClaudeHooks } from '../../core/hooks/install';
import { confirmAndWrite } from '../config/confirmAndWrite';
import { hookFilePath, readIfExists } from '../hooks/hookFiles';
import { ensureLauncher } from '../hooks/launcher';
import type { AlfredCommand } from './command';

/**
 * Alfred: Govern Claude Code Sessions — adds Alfred's hooks to `.claude/settings.json` (keeping the
 * user's own settings and comments), so one role file governs Claude-format agents in the terminal too.
 */
export const governClaudeCode: AlfredCommand = {
  id: governedAgent('claude-code').commands.govern,
  async run({ host, extension }) {
    const harness = host.require();
    ensureLauncher(extension.extensionUri);
    const file = hookFilePath(harness.workspaceFolder, 'claude-code');
    const written = await confirmAndWrite(host, {
      files: [{ path: file, newText: withClaudeHooks(readIfExists(file)) }],
      reason: 'govern Claude Code sessions',
      title: vscode.l10n.t('Govern Claude Code sessions with Alfred\'s hooks'),
    });
    host.refresh();
    return written;
  },
};
