/** Composition root: builds the adapter's parts and registers each with the extension's lifetime. */
import * as vscode from 'vscode';
import type { Harness } from '../core/harness';
import { BudgetNotifier } from './budgetNotifier';
import { registerChatParticipant } from './chat/participant';
import { registerCommands } from './commands';
import { HarnessHost } from './harnessHost';
import { prompts } from './prompts';
import { BudgetStatusBar } from './statusBar';
import { TerminalObserver } from './terminals';
import { registerTools } from './tools';
import { DashboardViewProvider } from './webviews/dashboardView';

/** What Alfred offers other extensions (and its integration tests). */
export interface AlfredApi {
  harness(): Harness | undefined;
  prompts: typeof prompts;
}

export function activate(context: vscode.ExtensionContext): AlfredApi {
  const host = new HarnessHost(context.extensionUri);
  context.subscriptions.push(
    host,
    new BudgetStatusBar(host),
    new BudgetNotifier(host),
    new TerminalObserver(host),
    ...registerCommands({ host, extension: context }),
    ...registerTools(host),
    vscode.window.registerWebviewViewProvider(DashboardViewProvider.viewId, new DashboardViewProvider(context.extensionUri, host)),
    registerChatParticipant(host, context.extensionUri),
  );
  return { harness: () => host.current, prompts };
}

export function deactivate(): void {}
