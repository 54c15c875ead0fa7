import * as vscode from 'vscode';
import { governedAgent } from '../../core/governance/agents';
import { codexHookFile } from '../../core/hooks/install';
import { confirmAndWrite } from '../config/confirmAndWrite';
import { hookFilePath, readIfExists } from '../hooks/hookFiles';
import { ensureLauncher } from '../hooks/launcher';
import type { AlfredCommand } from './command';

/**
 * Alfred: Govern Codex Sessions — adds Alfred's hooks to `.codex/hooks.json` (keeping any hooks the
 * user has there). The Codex runtime reads that file itself, both for VS Code's Codex agent sessions
 * and for the Codex CLI, so one role file governs Codex too.
 */
export const governCodex: AlfredCommand = {
  id: governedAgent('codex').commands.govern,
  async run({ host, extension }) {
    const harness = host.require();
    ensureLauncher(extension.extensionUri);
    const file = hookFilePath(harness.workspaceFolder, 'codex');
    const written = await confirmAndWrite(host, {
      files: [{ path: file, newText: codexHookFile(readIfExists(file)) }],
      reason: 'govern Codex sessions',
      title: vscode.l10n.t('Govern Codex sessions with Alfred\'s hooks'),
    });
    if (written) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Codex sessions in this workspace now run under role {0}. The Codex CLI asks you once to trust new project hooks; VS Code trusts them for its own Codex sessions in a trusted workspace.', harness.activeRole().role.name));
    }
    host.refresh();
    return written;
  },
};
