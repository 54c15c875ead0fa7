import * as vscode from 'vscode';
import { alfredChecks, doctorText, hookSocketFor, probeProviders, type DoctorCheck } from '../../core/doctor/report';
import { resolveKey } from '../../core/providers/keys';
import { listModels } from '../../core/providers/stream';
import { readGovernanceHealth } from '../hooks/health';
import { readProviders } from '../providers/providerSettings';
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
    const { providers, problems } = readProviders();
    const report = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Alfred: probing providers…') }, async () => ({
      providers: [
        ...problems.map((p): DoctorCheck => ({ name: `${p.path} ${p.key}`, state: 'fail', detail: p.message })),
        ...await probeProviders(providers, {
          key: async (provider) => {
            const key = await resolveKey(provider.key, { env: process.env, secret: (name) => Promise.resolve(extension.secrets.get(name)) });
            return key.ok ? { ok: true, key: key.key } : provider.key.kind === 'none' ? { ok: true, key: undefined } : key;
          },
          list: (provider, key, signal) => listModels(provider, key, signal),
        }),
      ],
      alfred: await alfredChecks({ harness, governance: readGovernanceHealth(harness), hookSocket: hookSocketFor() }),
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
