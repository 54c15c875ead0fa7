import * as vscode from 'vscode';
import {
  BudgetNotification, EventNotification, GetStateRequest, OpenEventLogCommand, ReadyCommand,
  ResetBudgetCommand, StateNotification, SwitchRoleCommand,
} from '../../protocol/dashboard';
import { DASHBOARD_STRINGS } from '../../protocol/dashboardStrings';
import type { HarnessHost } from '../harnessHost';
import { budgetView, dashboardState, eventView } from './dashboardState';
import { webviewHtml, webviewOptions } from './html';
import { MessageRouter } from './messageRouter';

/** The sidebar dashboard: sends a snapshot on `ready`, then small notifications as things change. */
export class DashboardViewProvider implements vscode.WebviewViewProvider {
  static readonly viewId = 'alfred.dashboard';

  constructor(private readonly extensionUri: vscode.Uri, private readonly host: HarnessHost) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    const webview = view.webview;
    webview.options = webviewOptions(this.extensionUri);
    const strings = Object.fromEntries(DASHBOARD_STRINGS.map((s) => [s, vscode.l10n.t(s)]));
    webview.html = webviewHtml(webview, this.extensionUri, { script: 'dashboard.js', title: 'Alfred', strings });

    const state = () => dashboardState(this.host.current, vscode.workspace.isTrusted);
    const router: MessageRouter = new MessageRouter(webview)
      .onCommand(ReadyCommand, () => router.notify(StateNotification, state()))
      .onRequest(GetStateRequest, state)
      .onCommand(SwitchRoleCommand, ({ role }) => vscode.commands.executeCommand('alfred.switchRole', role))
      .onCommand(ResetBudgetCommand, () => vscode.commands.executeCommand('alfred.resetBudget'))
      .onCommand(OpenEventLogCommand, () => vscode.commands.executeCommand('alfred.openEventLog'));

    let lastRoles = '';
    const subscriptions = [
      webview.onDidReceiveMessage((m) => router.dispatch(m)),
      // Budget and events update in place; a change of roles or of the active role sends a snapshot.
      this.host.onEvent((e) => { if (view.visible) void router.notify(EventNotification, eventView(e)); }),
      this.host.onDidChange(() => {
        const harness = this.host.current;
        if (!view.visible) return;
        const rolesKey = harness ? JSON.stringify([harness.activeRole().role.name, [...harness.roles().roles.keys()], harness.roles().problems.length]) : '';
        if (!harness || rolesKey !== lastRoles) {
          lastRoles = rolesKey;
          void router.notify(StateNotification, state());
        } else {
          void router.notify(BudgetNotification, budgetView(harness));
        }
      }),
      view.onDidChangeVisibility(() => { if (view.visible) void router.notify(StateNotification, state()); }),
    ];
    view.onDidDispose(() => subscriptions.forEach((s) => s.dispose()));
  }
}
