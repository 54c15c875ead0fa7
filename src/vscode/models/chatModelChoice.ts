import * as vscode from 'vscode';

/** How long a new provider's models may take to be listed by VS Code (it asks Alfred's provider again). */
const LISTED_WITHIN_MS = 15_000;
/** VS Code's own command that sets the chat's model (what its model picker runs); absent in some builds. */
const CHANGE_MODEL = 'workbench.action.chat.changeModel';

async function providerModels(provider: string): Promise<vscode.LanguageModelChat[]> {
  const prefix = `alfred/${provider}/`;
  const end = Date.now() + LISTED_WITHIN_MS;
  for (;;) {
    const models = (await vscode.lm.selectChatModels({ vendor: 'alfred' })).filter((m) => m.id.startsWith(prefix));
    if (models.length > 0 || Date.now() > end) return models;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * After a provider is added: the chat uses its first model in the provider's own order (`listed`:
 * the ids as the server listed them, its default first), not whichever VS Code would pick (the
 * alphabetically first, maybe one that cannot chat), and Alfred says which, with how to change it.
 * Returns the model chosen.
 */
export async function useProviderModel(provider: string, listed: readonly string[] = []): Promise<vscode.LanguageModelChat | undefined> {
  const models = await providerModels(provider);
  if (models.length === 0) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Provider {0} is added, but VS Code lists none of its models yet: Alfred: Doctor says whether it answers.', provider));
    return undefined;
  }
  const rank = (m: vscode.LanguageModelChat) => {
    const i = listed.indexOf(m.family);
    return i === -1 ? listed.length : i;
  };
  const chosen = [...models].sort((a, b) => rank(a) - rank(b))[0]!;
  const canChange = (await vscode.commands.getCommands(true)).includes(CHANGE_MODEL);
  if (canChange) {
    try {
      await vscode.commands.executeCommand(CHANGE_MODEL, { vendor: chosen.vendor, id: chosen.id, family: chosen.family });
    } catch (err) {
      console.error('[alfred] could not set the chat\'s model:', err);
    }
  }
  const others = models.length - 1;
  const text = canChange
    ? vscode.l10n.t('The chat now uses {0}, of provider {1}.', chosen.name, provider)
    : vscode.l10n.t('Provider {0} is added: pick {1} in the chat\'s model picker.', provider, chosen.name);
  void vscode.window.showInformationMessage(others > 0 ? `${text} ${vscode.l10n.t('{0} other models are in the chat\'s model picker.', others)}` : text);
  return chosen;
}

/** Opens the Chat view with `@alfred ` typed, for the user's first question. */
export async function openAlfredChat(): Promise<void> {
  try {
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@alfred ', isPartialQuery: true });
  } catch (err) {
    console.error('[alfred] could not open the chat:', err);
  }
}
