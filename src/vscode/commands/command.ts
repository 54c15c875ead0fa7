import type * as vscode from 'vscode';
import type { HarnessHost } from '../harnessHost';

/** What every command gets: no service locator, just the few things commands use. */
export interface CommandContext {
  host: HarnessHost;
  extension: vscode.ExtensionContext;
}

export interface AlfredCommand {
  id: string;
  run(ctx: CommandContext, ...args: unknown[]): unknown;
}
