import * as vscode from 'vscode';
import { alfredChecks, doctorText, hookSocketFor } from '../../core/doctor/report';
import { clientVersions } from '../../core/protect/clientVersions';
import { readGovernanceHealth } from '../hooks/health';
import { providerChecks } from '../providers/providerChecks';
import { userSettingsFile } from '../config/settingsFiles';
import type { AlfredCommand } from './command';

let channel: vscode.OutputChannel | undefined;

/**
 * Alfred: Doctor — every provider probed in parallel and Alfred's own health, in an output channel.
 * It needs no language model, so it answers on a machine that has none and says what is missing.
 */
export const doctor: AlfredCommand = {
  id: 'alfred.doctor',
  async run({ host, extension }) {
    const harness = host.require();
    const report = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Alfred: probing providers…') }, async () => ({
      providers: await providerChecks(userSettingsFile(extension)),
      alfred: await alfredChecks({ harness, governance: readGovernanceHealth(harness), hookSocket: hookSocketFor(), clients: await clientVersions(process.env) }),
    }));
    if (!channel) {
      channel = vscode.window.createOutputChannel('Alfred Doctor');
      extension.subscriptions.push(channel);
    }
    channel.clear();
    channel.appendLine(doctorText(report));
    channel.show(true);
    return report;
  },
};
