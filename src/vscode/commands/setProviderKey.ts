import * as vscode from 'vscode';
import { readProviders } from '../providers/providerSettings';
import type { AlfredCommand } from './command';

/**
 * Alfred: Set Provider Key — keeps a key in VS Code's secret storage under the name a provider's
 * `"key": "secret:NAME"` refers to. The key is typed into a password box, confirmed before it is
 * stored, and never written to a file, the event log or a message.
 */
export const setProviderKey: AlfredCommand = {
  id: 'alfred.setProviderKey',
  async run({ extension }) {
    const named = readProviders().providers.flatMap((p) => (p.key.kind === 'secret' ? [{ label: p.key.name, description: p.name }] : []));
    const other = vscode.l10n.t('Another name…');
    const picked = named.length > 0
      ? await vscode.window.showQuickPick([...named, { label: other, description: '' }], { placeHolder: vscode.l10n.t('Which key? (a provider\'s "key": "secret:NAME")') })
      : { label: other };
    if (!picked) return false;
    const name = picked.label === other
      ? await vscode.window.showInputBox({ prompt: vscode.l10n.t('The name the provider refers to as "secret:NAME"'), validateInput: (v) => (/^[A-Za-z0-9_.-]{1,64}$/.test(v) ? undefined : vscode.l10n.t('Letters, digits, _ . - (at most 64)')) })
      : picked.label;
    if (!name) return false;
    const value = await vscode.window.showInputBox({ prompt: vscode.l10n.t('The key for {0}', name), password: true, ignoreFocusOut: true });
    if (!value) return false;
    const store = vscode.l10n.t('Store');
    const answer = await vscode.window.showInformationMessage(vscode.l10n.t('Store the key "{0}" in VS Code\'s secret storage? Alfred\'s providers that refer to secret:{0} will use it.', name), { modal: true }, store);
    if (answer !== store) return false;
    await extension.secrets.store(name, value);
    void vscode.window.showInformationMessage(vscode.l10n.t('Key "{0}" stored in VS Code\'s secret storage.', name));
    return true;
  },
};
