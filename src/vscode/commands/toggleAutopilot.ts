import * as vscode from 'vscode';
import type { AlfredCommand } from './command';

/**
 * Alfred: Toggle Autopilot — switches the pack radar of `@alfred` on or off (off: no pack, or the
 * packs pinned in alfred.pinnedPacks). Written where the setting is already set, else for the user.
 */
export const toggleAutopilot: AlfredCommand = {
  id: 'alfred.toggleAutopilot',
  async run() {
    const config = vscode.workspace.getConfiguration('alfred');
    const on = !(config.get<boolean>('autopilot') ?? true);
    const where = config.inspect<boolean>('autopilot');
    const target = where?.workspaceFolderValue !== undefined ? vscode.ConfigurationTarget.WorkspaceFolder
      : where?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace
        : vscode.ConfigurationTarget.Global;
    await config.update('autopilot', on, target);
    const pinned = (config.get<string[]>('pinnedPacks') ?? []).filter(Boolean);
    void vscode.window.showInformationMessage(on
      ? vscode.l10n.t('Alfred autopilot is on: @alfred picks a pack for each prompt.')
      : pinned.length
        ? vscode.l10n.t('Alfred autopilot is off: @alfred uses the pinned packs ({0}).', pinned.join(', '))
        : vscode.l10n.t('Alfred autopilot is off: @alfred uses no pack (pin some with alfred.pinnedPacks).'));
    return on;
  },
};
