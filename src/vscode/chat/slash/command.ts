import type * as vscode from 'vscode';
import type { HarnessHost } from '../../harnessHost';

/** What a slash command of `@alfred` gets. */
export interface SlashContext {
  host: HarnessHost;
  extensionUri: vscode.Uri;
  /** The user settings file (config/settingsFiles.ts). */
  userSettingsFile: string;
  request: vscode.ChatRequest;
  context: vscode.ChatContext;
  stream: vscode.ChatResponseStream;
  token: vscode.CancellationToken;
}

export interface SlashCommand {
  /** The name after the slash, as declared in package.json's chatParticipants commands. */
  name: string;
  run(ctx: SlashContext): Promise<vscode.ChatResult | void>;
}
