import * as vscode from 'vscode';
import type { AlfredEvent } from '../../core/base/events/types';
import {
  EditRoleCommand, EventNotification, NewRoleCommand, OpenEventLogCommand, ReadyCommand, ReconcileOperationCommand, ResetBudgetCommand,
  ConfigureVscodeSandboxCommand, SetGovernanceCommand, StateNotification, StatePatchNotification, SwitchRoleCommand, VerifyCompletionCommand,
} from '../../protocol/dashboard';
import { DASHBOARD_STRINGS } from '../../protocol/dashboardStrings';
import { AuditMcpCommand } from '../../protocol/mcp';
import { VSCODE_SANDBOX_COMMAND } from '../../core/sandbox/vscodeSandbox';
import { AddLocalServerCommand, AddProviderCommand, CheckModelsCommand } from '../../protocol/models';
import { ADD_LOCAL_SERVER } from '../models/firstAnswer';
import type { ModelAvailability } from '../models/modelAvailability';
import type { HarnessHost } from '../harnessHost';
import { DASHBOARD_SECTIONS, SECTION_SETTINGS, type DashboardSection, type SectionContext } from './dashboardSectionList';
import { DailySpendTracker } from './dashboardSections';
import { assembleState, eventView, sectionStates } from './dashboardState';
import { localizedSummary } from './eventSummary';
import { governanceCommand, GovernanceTracker, watchHookFiles } from './governanceSection';
import { webviewHtml, webviewOptions } from './html';
import { MessageRouter } from './messageRouter';
import { TeamTracker } from './teamSection';

/**
 * The sidebar dashboard. The page asks once, when it is ready, and gets the whole state; after that
 * each section (dashboardSectionList.ts) is recomputed only when a host event it depends on comes,
 * and sent as a patch of its own fields; the feed receives events one by one.
 */
export class DashboardViewProvider implements vscode.WebviewViewProvider {
  static readonly viewId = 'alfred.dashboard';

  /** `userSettingsFile`: where Copilot's usage export settings are written (copilotOtelSettings.ts). */
  constructor(private readonly extensionUri: vscode.Uri, private readonly host: HarnessHost, private readonly userSettingsFile?: string, private readonly models?: ModelAvailability) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    const webview = view.webview;
    webview.options = webviewOptions(this.extensionUri);
    const strings = Object.fromEntries(DASHBOARD_STRINGS.map((s) => [s, vscode.l10n.t(s)]));
    webview.html = webviewHtml(webview, this.extensionUri, { script: 'dashboard.js', title: 'Alfred', strings });

    const models = this.models;
    const ctx = (): SectionContext => ({ harness: this.host.current, trusted: vscode.workspace.isTrusted, spend, governance, team, ...(models ? { models } : {}) });
    const spend = new DailySpendTracker();
    const governance = new GovernanceTracker(this.userSettingsFile, () => refreshWhere((s) => s.name === 'governance'));
    const team = new TeamTracker(localizedSummary, () => refreshWhere((s) => s.name === 'team'));
    /** What each section last sent: a section whose state did not change sends nothing. */
    const sent = new Map<string, string>();
    const throttled = new Map<string, ReturnType<typeof setTimeout>>();
    let folder = this.host.current?.workspaceFolder;

    const router: MessageRouter = new MessageRouter(webview);
    const snapshot = () => {
      const parts = sectionStates(ctx());
      sent.clear();
      for (const { section, state } of parts) sent.set(section.name, JSON.stringify(state));
      void router.notify(StateNotification, assembleState(this.host.current, parts));
    };
    const push = (s: DashboardSection) => {
      if (!view.visible) return;
      const patch = s.state(ctx());
      const key = JSON.stringify(patch);
      if (sent.get(s.name) === key) return;
      sent.set(s.name, key);
      void router.notify(StatePatchNotification, patch);
    };
    const refresh = (s: DashboardSection) => {
      if (!s.throttleMs) return push(s);
      if (throttled.has(s.name)) return;
      throttled.set(s.name, setTimeout(() => { throttled.delete(s.name); push(s); }, s.throttleMs));
    };
    const refreshWhere = (test: (s: DashboardSection) => boolean) => DASHBOARD_SECTIONS.filter(test).forEach(refresh);

    router
      .onCommand(ReadyCommand, snapshot)
      .onCommand(SwitchRoleCommand, ({ role }) => vscode.commands.executeCommand('alfred.switchRole', role))
      .onCommand(ResetBudgetCommand, () => vscode.commands.executeCommand('alfred.resetBudget'))
      .onCommand(OpenEventLogCommand, () => vscode.commands.executeCommand('alfred.openEventLog'))
      .onCommand(NewRoleCommand, () => vscode.commands.executeCommand('alfred.newRole'))
      .onCommand(EditRoleCommand, ({ role }) => vscode.commands.executeCommand('alfred.editRole', role))
      .onCommand(VerifyCompletionCommand, () => vscode.commands.executeCommand('alfred.verifyCompletion'))
      .onCommand(ReconcileOperationCommand, ({ id, state }) => vscode.commands.executeCommand('alfred.reconcileOperations', id, state))
      .onCommand(SetGovernanceCommand, ({ agent, govern }) => vscode.commands.executeCommand(governanceCommand(agent, govern)))
      .onCommand(ConfigureVscodeSandboxCommand, () => vscode.commands.executeCommand(VSCODE_SANDBOX_COMMAND))
      .onCommand(AuditMcpCommand, () => vscode.commands.executeCommand('alfred.auditMcpServers'))
      .onCommand(AddProviderCommand, () => vscode.commands.executeCommand('alfred.addProvider'))
      .onCommand(AddLocalServerCommand, ({ baseUrl }) => vscode.commands.executeCommand(ADD_LOCAL_SERVER, baseUrl))
      .onCommand(CheckModelsCommand, () => models?.check());

    let hookFiles: vscode.Disposable | undefined;
    const watchWorkspace = () => {
      hookFiles?.dispose();
      hookFiles = folder ? watchHookFiles(folder, () => refreshWhere((s) => s.on.hookFiles === true)) : undefined;
    };
    watchWorkspace();
    const stopTeam = team.watch(() => this.host.current);

    const onEvent = (e: AlfredEvent) => {
      // Every section sees every event, visible or not: its tracker stays current.
      const changed = DASHBOARD_SECTIONS.filter((s) => s.on.event?.(e, ctx()) === true);
      // This window's own refusal or charge shows in the team section without waiting for the poll.
      void team.poll(this.host.current);
      if (!view.visible) return;
      void router.notify(EventNotification, eventView(e));
      changed.forEach(refresh);
    };
    const subscriptions = [
      webview.onDidReceiveMessage((m) => router.dispatch(m)),
      ...(models ? [models.onDidChange(() => refreshWhere((s) => s.name === 'models'))] : []),
      this.host.onEvent(onEvent),
      this.host.onDidChange(() => {
        const harness = this.host.current;
        if (harness?.workspaceFolder !== folder) {
          // Another workspace (or none): another log, other records; the page starts over.
          folder = harness?.workspaceFolder;
          watchWorkspace();
          if (view.visible) snapshot();
          return;
        }
        refreshWhere((s) => s.on.harness === true);
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (SECTION_SETTINGS.some((k) => e.affectsConfiguration(k))) refreshWhere((s) => (s.on.settings ?? []).some((k) => e.affectsConfiguration(k)));
      }),
      // Nothing is sent while the view is hidden: it catches up when shown again.
      view.onDidChangeVisibility(() => { if (view.visible) snapshot(); }),
    ];
    view.onDidDispose(() => {
      subscriptions.forEach((s) => s.dispose());
      throttled.forEach((t) => clearTimeout(t));
      hookFiles?.dispose();
      stopTeam();
    });
  }
}

