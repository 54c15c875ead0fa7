import * as vscode from 'vscode';
import type { HarnessHost } from '../harnessHost';
import { SLASH_COMMANDS } from './slash';
import { runTurn } from './turn';

/**
 * `@alfred`'s request handler: slash commands by name (slash/), anything else is a governed turn
 * (turn.ts → loop.ts). Exposed on the extension's API so integration tests can play conversations.
 */
/** `userSettingsFile`: the user settings file (config/settingsFiles.ts), which /doctor reads too. */
export function createChatHandler(host: HarnessHost, extensionUri: vscode.Uri, userSettingsFile: string): vscode.ChatRequestHandler {
  return async (request, context, stream, token) => {
    if (!host.current) {
      stream.markdown(vscode.l10n.t('Open a folder first: Alfred governs the agents working in a workspace.'));
      return {};
    }
    try {
      const command = request.command ? SLASH_COMMANDS.get(request.command) : undefined;
      if (command) return (await command.run({ host, extensionUri, userSettingsFile, request, context, stream, token })) ?? {};
      return await runTurn(host, extensionUri, request, context, stream, token);
    } catch (err) {
      if (token.isCancellationRequested) return {};
      return { errorDetails: { message: vscode.l10n.t('Alfred failed: {0}', (err as Error).message || String(err)) } };
    }
  };
}

export function registerChatParticipant(host: HarnessHost, extensionUri: vscode.Uri, userSettingsFile: string): vscode.Disposable {
  const participant = vscode.chat.createChatParticipant('alfred.agent', createChatHandler(host, extensionUri, userSettingsFile));
  participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.png');
  return participant;
}
