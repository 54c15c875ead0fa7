import * as vscode from 'vscode';
import { localOffers } from '../../core/models/providers/localFirst';
import type { HarnessHost } from '../harnessHost';
import { addProviderToSettings } from '../providers/addToSettings';
import { probeLocalEndpoints } from '../providers/localFirst';
import { readProviders } from '../providers/providerSettings';
import { openAlfredChat } from './chatModelChoice';
import type { ModelAvailability } from './modelAvailability';

/** The dashboard and the status bar's hint run these; they are not in the palette. */
export const SET_UP_MODEL = 'alfred.setUpModel';
export const ADD_LOCAL_SERVER = 'alfred.addLocalServer';
const WALKTHROUGH = 'alfred-harness.alfred-harness#gettingStarted';
const WALKTHROUGH_SHOWN = 'alfred.walkthroughShown';

/**
 * A path to a first answer where no chat model is available: a status bar hint that opens the
 * dashboard's Models section; adding the local server found there (one click, then the write
 * pipeline's confirmation), after which the chat uses its first model and opens with `@alfred `;
 * and the walkthrough, opened once, on the first start after install.
 */
export function registerFirstAnswer(host: HarnessHost, extension: vscode.ExtensionContext, models: ModelAvailability): vscode.Disposable[] {
  const hint = vscode.window.createStatusBarItem('alfred.modelHint', vscode.StatusBarAlignment.Left, 99);
  hint.name = vscode.l10n.t('Alfred: no model');
  hint.text = `$(sparkle) ${vscode.l10n.t('Alfred: set up a model')}`;
  hint.tooltip = vscode.l10n.t('No chat model is available, so @alfred cannot answer. Click to add a provider or a local model server.');
  hint.command = SET_UP_MODEL;
  const showHint = () => {
    const view = models.current();
    if (!view.usable && !view.checking) hint.show();
    else hint.hide();
  };
  showHint();
  // VS Code's own setting for extensions' walkthroughs on install is honoured.
  const openOnInstall = vscode.workspace.getConfiguration('workbench.welcomePage').get<boolean>('walkthroughs.openOnInstall') !== false;
  if (extension.extensionMode !== vscode.ExtensionMode.Test && openOnInstall && !extension.globalState.get<boolean>(WALKTHROUGH_SHOWN)) {
    void extension.globalState.update(WALKTHROUGH_SHOWN, true);
    void vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false).then(undefined, (err: unknown) => console.error('[alfred] could not open the walkthrough:', err));
  }
  return [
    hint,
    models.onDidChange(showHint),
    vscode.commands.registerCommand(SET_UP_MODEL, () => vscode.commands.executeCommand('alfred.dashboard.focus')),
    vscode.commands.registerCommand(ADD_LOCAL_SERVER, async (baseUrl: string) => {
      const offer = localOffers(await probeLocalEndpoints(), readProviders().providers).find((o) => o.endpoint.baseUrl === baseUrl);
      if (!offer) {
        void vscode.window.showWarningMessage(vscode.l10n.t('No model server answers at {0} now.', baseUrl));
        void models.check();
        return false;
      }
      const written = await addProviderToSettings(host, extension, offer.suggested, {
        reason: `add the local model server ${offer.endpoint.label} as a provider`,
        title: vscode.l10n.t('Add {0} as Alfred\'s provider', offer.endpoint.label), listed: offer.models,
      });
      void models.check();
      if (written) await openAlfredChat();
      return written;
    }),
  ];
}
