/** Composition root: builds the adapter's parts and registers each with the extension's lifetime. */
import * as vscode from 'vscode';
import type { Harness } from '../core/harness/harness';
import { AuthorityRequests } from './authorityRequests';
import { BudgetNotifier } from './budgetNotifier';
import { createChatHandler, registerChatParticipant } from './chat/participant';
import { registerCommands } from './commands';
import { confirmAndWrite, type WriteRequest } from './config/confirmAndWrite';
import { confirmations } from './config/confirmations';
import { PLAN_SCHEME, planDocuments } from './config/planDocuments';
import { HarnessHost } from './harnessHost';
import { registerHookServer } from './hooks/hookServer';
import { registerCopilotUsage } from './usage/copilotUsage';
import { AlfredModelProvider } from './providers/alfredModelProvider';
import { offerLocalEndpoints } from './providers/localFirst';
import { ensureLauncher } from './hooks/launcher';
import { prompts } from './prompts';
import { BudgetStatusBar } from './statusBar';
import { TerminalObserver } from './terminals';
import { registerMcpAudit } from './mcp';
import { registerTools } from './tools';
import { userSettingsFile } from './config/settingsFiles';
import { userDirOfGlobalStorage } from '../core/rules/mcp/locations';
import { rememberVscodeUserDir } from '../core/sandbox/vscodeSettingsFiles';
import { DashboardViewProvider } from './webviews/dashboardView';
import { registerFirstAnswer } from './models/firstAnswer';
import { ModelAvailability } from './models/modelAvailability';
import { useNodeCrypto } from '../core/base/crypto/nodeCrypto';

/**
 * Alfred's test seams: handed out only when the extension runs under its own integration tests
 * (`ExtensionMode.Test`). Anyone holding them could replace `prompts.confirm` (which guards an agent's
 * role switch) or call `harness().switchRole('admin')`, so an installed Alfred exports nothing: no
 * other extension can change its state or skip its confirmations.
 */
export interface AlfredTestApi {
  harness(): Harness | undefined;
  prompts: typeof prompts;
  /** `@alfred`'s request handler, so integration tests can play conversations with a scripted model. */
  chat: vscode.ChatRequestHandler;
  /** The configuration-write pipeline (diff, confirm, backup, atomic write); true when written. */
  writeConfig(request: WriteRequest): Promise<boolean>;
  /** How a write is put to the user; integration tests replace `review`. */
  confirmations: typeof confirmations;
}

export function activate(context: vscode.ExtensionContext): AlfredTestApi | undefined {
  // The extension host stays: Node's native hashing and random ids (see core/base/crypto/nodeCrypto.ts).
  useNodeCrypto();
  const host = new HarnessHost(context.extensionUri);
  try {
    // Hook files point at ~/.alfred/bin/alfred; keep it pointing at this installation.
    ensureLauncher(context.extensionUri);
  } catch (err) {
    console.error('[alfred] could not write the hook launcher:', err);
  }
  try {
    // The hooks check VS Code's own sandbox in this editor's settings too, wherever its user folder is.
    const userDir = userDirOfGlobalStorage(context.globalStorageUri.fsPath);
    if (userDir) rememberVscodeUserDir(userDir);
  } catch (err) {
    console.error('[alfred] could not note this editor\'s user folder:', err);
  }
  // Whether a first answer is possible (a chat model, Alfred's providers, a local server), for the dashboard and a status bar hint.
  const availability = new ModelAvailability(userSettingsFile(context));
  context.subscriptions.push(
    host,
    availability,
    ...registerFirstAnswer(host, context, availability),
    new BudgetStatusBar(host),
    new BudgetNotifier(host),
    new TerminalObserver(host),
    new AuthorityRequests(host),
    ...registerCommands({ host, extension: context }),
    ...registerTools(host),
    vscode.window.registerWebviewViewProvider(DashboardViewProvider.viewId, new DashboardViewProvider(context.extensionUri, host, userSettingsFile(context), availability)),
    registerChatParticipant(host, context.extensionUri, userSettingsFile(context)),
    vscode.workspace.registerTextDocumentContentProvider(PLAN_SCHEME, planDocuments),
    // `alfred hook` calls answered from here instead of a cold start of the command line.
    registerHookServer(context),
    // Copilot's model spend, from its OpenTelemetry export, charged to this workspace's sessions.
    registerCopilotUsage(host),
    // MCP servers: audited at start, on a change of mcp.json, and by Alfred: Audit MCP Servers.
    ...registerMcpAudit(host, context),
  );
  // Alfred's own models (alfred.providers), for @alfred and any agent, governed and charged here.
  const models = new AlfredModelProvider(host, context.secrets);
  context.subscriptions.push(models, vscode.lm.registerLanguageModelChatProvider('alfred', models));
  // A local model server that answers is offered once the window has settled (not in Alfred's own tests).
  if (context.extensionMode !== vscode.ExtensionMode.Test) {
    const timer = setTimeout(() => void offerLocalEndpoints(host, context).catch((err: unknown) => console.error('[alfred] local model servers:', err)), 5_000);
    context.subscriptions.push(new vscode.Disposable(() => clearTimeout(timer)));
  }
  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return { harness: () => host.current, prompts, chat: createChatHandler(host, context.extensionUri, userSettingsFile(context)), writeConfig: (request) => confirmAndWrite(host, request), confirmations };
}

export function deactivate(): void {}
