import * as vscode from 'vscode';
import { governedAgent } from '../../core/governance/agents';
import * as os from 'node:os';
import { inForceContext, trustChange } from '../../core/governance/inForceAll';
import { codexHookFile } from '../../core/hooks/install';
import { confirmAndWrite } from '../config/confirmAndWrite';
import { hookFilePath, readIfExists } from '../hooks/hookFiles';
import { ensureLauncher } from '../hooks/launcher';
import type { AlfredCommand } from './command';

/**
 * Alfred: Govern Codex Sessions — adds Alfred's hooks to `.codex/hooks.json` (keeping any hooks the
 * user has there) and, where Codex does not trust the project yet, the trust entry to its config.toml. The Codex runtime reads that file itself, both for VS Code's Codex agent sessions
 * and for the Codex CLI, so one role file governs Codex too.
 */
export const governCodex: AlfredCommand = {
  id: governedAgent('codex').commands.govern,
  async run({ host, extension }) {
    const harness = host.require();
    ensureLauncher(extension.extensionUri);
    const file = hookFilePath(harness.workspaceFolder, 'codex');
    // Codex ignores a project's hooks until the project is trusted: the entry goes in the same diff,
    // to Codex's own config.toml (the user's file, so only through the confirmation).
    const trust = trustChange('codex', inForceContext(harness.workspaceFolder, os.homedir(), process.env));
    const written = await confirmAndWrite(host, {
      files: [{ path: file, newText: codexHookFile(readIfExists(file)) }, ...(trust ? [{ path: trust.file, newText: trust.newText }] : [])],
      reason: trust ? 'govern Codex sessions and trust the project in Codex' : 'govern Codex sessions',
      title: vscode.l10n.t('Govern Codex sessions with Alfred\'s hooks'),
    });
    if (written) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Codex sessions in this workspace now run under role {0} once you approve Alfred\'s hooks in Codex: run codex here and review them with /hooks (Codex skips hooks nobody reviewed). The dashboard says when they are in force.', harness.activeRole().role.name));
    }
    host.refresh();
    return written;
  },
};
