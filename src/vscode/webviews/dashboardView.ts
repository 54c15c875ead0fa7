import * as vscode from 'vscode';
import {
  BudgetNotification, DailySpendNotification, EditRoleCommand, EventNotification, GetStateRequest,
  NewRoleCommand, OpenEventLogCommand, ReadyCommand, ReconcileOperationCommand, ResetBudgetCommand, SetGovernanceCommand, StateNotification,
  StatePatchNotification, SwitchRoleCommand, VerifyCompletionCommand,
} from '../../protocol/dashboard';
import { DASHBOARD_STRINGS } from '../../protocol/dashboardStrings';
import type { HarnessHost } from '../harnessHost';
import { HEALTH_SETTINGS } from '../hooks/health';
import { COMPLETION_EVENTS, completionsView } from './completionViews';
import { DailySpendTracker, SECTION_SETTINGS, failoverFromSettings, packFromState, sectionsView } from './dashboardSections';
import { budgetView, dashboardState, eventView } from './dashboardState';
import { GOVERNANCE_COMMANDS, GovernanceTracker, watchHookFiles } from './governanceSection';
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

    const spend = new DailySpendTracker();
    const governance = new GovernanceTracker();
    let lastGovernance = '';
    const state = () => {
      if (this.host.current) {
        spend.reload(this.host.current);
        governance.reload(this.host.current);
      }
      const s = dashboardState(this.host.current, vscode.workspace.isTrusted, spend, governance);
      lastGovernance = JSON.stringify(s.governance);
      return s;
    };
    const router: MessageRouter = new MessageRouter(webview)
      .onCommand(ReadyCommand, () => router.notify(StateNotification, state()))
      .onRequest(GetStateRequest, state)
      .onCommand(SwitchRoleCommand, ({ role }) => vscode.commands.executeCommand('alfred.switchRole', role))
      .onCommand(ResetBudgetCommand, () => vscode.commands.executeCommand('alfred.resetBudget'))
      .onCommand(OpenEventLogCommand, () => vscode.commands.executeCommand('alfred.openEventLog'))
      .onCommand(NewRoleCommand, () => vscode.commands.executeCommand('alfred.newRole'))
      .onCommand(EditRoleCommand, ({ role }) => vscode.commands.executeCommand('alfred.editRole', role))
      .onCommand(VerifyCompletionCommand, () => vscode.commands.executeCommand('alfred.verifyCompletion'))
      .onCommand(ReconcileOperationCommand, ({ id, state }) => vscode.commands.executeCommand('alfred.reconcileOperations', id, state))
      .onCommand(SetGovernanceCommand, ({ agent, govern }) => vscode.commands.executeCommand(GOVERNANCE_COMMANDS[agent][govern ? 'govern' : 'stop']));

    // Hook files change through Alfred's commands, by hand, or with git: the section follows them.
    const pushGovernance = () => {
      const g = governance.view(this.host.current);
      const key = JSON.stringify(g);
      if (!view.visible || key === lastGovernance) return;
      lastGovernance = key;
      void router.notify(StatePatchNotification, { governance: g });
    };
    let hookFiles: vscode.Disposable | undefined;
    const watchWorkspace = () => {
      hookFiles?.dispose();
      const folder = this.host.current?.workspaceFolder;
      hookFiles = folder ? watchHookFiles(folder, pushGovernance) : undefined;
    };
    watchWorkspace();

    let lastRoles = '';
    let lastChat = '';
    let hookFilesFolder = this.host.current?.workspaceFolder;
    const subscriptions = [
      webview.onDidReceiveMessage((m) => router.dispatch(m)),
      // Budget and events update in place; a change of roles or of the active role sends a snapshot.
      this.host.onEvent((e) => {
        const spent = spend.add(e);
        if (!view.visible) return;
        void router.notify(EventNotification, eventView(e));
        if (spent) void router.notify(DailySpendNotification, spend.view(this.host.current)!);
        if (COMPLETION_EVENTS.has(e.type)) void router.notify(StatePatchNotification, completionsView(this.host.current));
        if (governance.add(e)) pushGovernance();
      }),
      this.host.onDidChange(() => {
        const harness = this.host.current;
        if (harness?.workspaceFolder !== hookFilesFolder) {
          hookFilesFolder = harness?.workspaceFolder;
          watchWorkspace();
        }
        if (!view.visible) return;
        const rolesKey = harness ? JSON.stringify([harness.activeRole().role.name, [...harness.roles().roles.keys()], harness.roles().problems.length]) : '';
        if (!harness || rolesKey !== lastRoles) {
          lastRoles = rolesKey;
          void router.notify(StateNotification, state());
        } else {
          void router.notify(BudgetNotification, budgetView(harness));
          // @alfred's failover health and pack change between turns without a new snapshot.
          const chat = { failover: failoverFromSettings(harness), pack: packFromState(harness) };
          const chatKey = JSON.stringify(chat);
          if (chatKey !== lastChat) {
            lastChat = chatKey;
            void router.notify(StatePatchNotification, chat);
          }
          pushGovernance();
        }
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (view.visible && SECTION_SETTINGS.some((s) => e.affectsConfiguration(s))) void router.notify(StatePatchNotification, sectionsView(this.host.current, spend, governance));
        // VS Code's own hook settings decide whether Copilot's hooks are in force.
        else if (HEALTH_SETTINGS.some((s) => e.affectsConfiguration(s))) pushGovernance();
      }),
      view.onDidChangeVisibility(() => { if (view.visible) void router.notify(StateNotification, state()); }),
    ];
    view.onDidDispose(() => {
      subscriptions.forEach((s) => s.dispose());
      hookFiles?.dispose();
    });
  }
}
