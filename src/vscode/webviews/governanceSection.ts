import * as vscode from 'vscode';
import type { AlfredEvent } from '../../core/base/events/types';
import { governedAgent, type AgentId } from '../../core/protect/agents';
import { clientVersions, type ClientVersion } from '../../core/protect/clientVersions';
import { HEALTH_WORKSPACE_FILES, type AgentHealth } from '../../core/integrations/health/health';
import type { Harness } from '../../core/harness/harness';
import { hookRunOf, lastHookRun, type HookRun } from '../../core/integrations/hooks/lastRun';
import { copilotExportOn } from '../../core/usage/copilotSpool';
import type { AgentGovernanceView, GovernanceView, GovernedAgent } from '../../protocol/dashboard';
import { activityOf, lastActivity, readGovernanceHealth, type Activity } from '../hooks/health';
import { issueText, stateText } from '../hooks/healthText';
import { sandboxText } from '../hooks/sandboxText';
import { vscodeSandboxShort, vscodeSandboxText } from '../hooks/vscodeSandboxText';
import { copilotOtelPointsAt, otlpEndpoint, userSettingsWithExport } from '../usage/copilotOtelSettings';

/** The command a row's button runs, from the one table of governed agents. */
export function governanceCommand(agent: AgentId, govern: boolean): string {
  return governedAgent(agent).commands[govern ? 'govern' : 'stop'];
}

/** The protocol's agent ids are the core's. */
const protocolId = (id: AgentId): GovernedAgent => id;

export function agentView(row: AgentHealth): AgentGovernanceView {
  return {
    id: protocolId(row.id),
    label: row.label,
    hookFile: row.hookFile,
    state: row.state,
    stateText: stateText(row),
    notes: row.notes.map((n) => issueText(n, row)),
    warnings: row.warnings.map((w) => issueText(w, row)),
  };
}

/**
 * A governed Copilot's row says whether its model spend is measured, and how to turn that on. The
 * marker is written when a window starts with the export pointed at Alfred (Copilot reads the settings
 * then): settings changed since wait for a reload.
 */
function withSpendNote(view: AgentGovernanceView, harness: Harness, settingsFile: string | undefined): AgentGovernanceView {
  if (view.id !== 'copilot' || view.state === 'not-governed') return view;
  if (copilotExportOn(harness.env)) return { ...view, notes: [...view.notes, vscode.l10n.t('Model spend measured: Copilot exports its usage to Alfred.')] };
  // A note, not a warning: the hooks govern either way; only the cost budget counts less.
  // The file as well as this window's settings: a write to it may not have reached them yet (governCopilot.ts).
  const pointed = copilotOtelPointsAt(otlpEndpoint()) || (settingsFile !== undefined && userSettingsWithExport(settingsFile) === undefined);
  const note = pointed
    ? vscode.l10n.t('Model spend not measured yet: reload the window, Copilot reads its usage export settings when it starts.')
    : vscode.l10n.t('Model spend not measured: Copilot\'s usage export to Alfred is off. Run "Alfred: Govern Copilot Agent Sessions" again to turn it on.');
  return { ...view, notes: [...view.notes, note] };
}

/** A row whose client is installed in a version newer than Alfred was tested with says so. */
function withVersionWarning(view: AgentGovernanceView, clients: readonly ClientVersion[] | undefined): AgentGovernanceView {
  const c = clients?.find((v) => v.id === view.id && v.verdict === 'newer');
  if (!c) return view;
  return { ...view, warnings: [...view.warnings, vscode.l10n.t('{0} {1} is installed ({2}), newer than {3}, the version Alfred was tested with: its hook inputs or answers may have changed.', c.label, c.version ?? '', c.path ?? '', c.testedWith)] };
}

/**
 * The governance section: each governed agent's health (its hook file, the settings, trust and the
 * launcher, read each time: a few small files) and when a hook last ran (read from the log's tail at
 * each snapshot, then kept current event by event, as is the newest agent tool call or terminal command).
 */
export class GovernanceTracker {
  private lastHook: HookRun | undefined;
  private activity: Activity | undefined;
  private dir: string | undefined;

  /** The terminal agents' installed versions, asked once per window in the background (they take seconds). */
  private clients: readonly ClientVersion[] | undefined;
  private clientsAsked = false;

  /**
   * `settingsFile`: the user settings file Copilot's usage export is written to (copilotOtelSettings.ts);
   * `onClients`: called once the installed versions are known, to show them.
   */
  constructor(private readonly settingsFile?: string, private readonly onClients?: () => void) {}

  private askClients(): void {
    if (this.clientsAsked || !this.onClients) return;
    this.clientsAsked = true;
    void clientVersions(process.env).then((found) => {
      this.clients = found;
      this.onClients?.();
    }, () => undefined);
  }

  view(harness: Harness | undefined): GovernanceView | null {
    if (!harness) return null;
    if (this.dir !== harness.stateDir) this.reload(harness);
    const rows = readGovernanceHealth(harness, { lastHook: this.lastHook ?? null, activity: this.activity ?? null });
    const sandbox = harness.sandboxStatus();
    this.askClients();
    const agents = rows.map(agentView).map((a) => withVersionWarning(withSpendNote(a, harness, this.settingsFile), this.clients));
    const vscodeSandbox = harness.vscodeSandbox();
    return {
      agents, lastHook: this.lastHook ?? null, sandbox: { state: sandbox.state, text: sandboxText(sandbox) },
      vscodeSandbox: { text: vscodeSandboxText(vscodeSandbox), short: vscodeSandboxShort(vscodeSandbox) },
    };
  }

  reload(harness: Harness): void {
    this.dir = harness.stateDir;
    this.lastHook = lastHookRun(harness.stateDir);
    this.activity = lastActivity(harness.stateDir);
  }

  /** Adds a live event; true when it is a newer hook run, agent tool call or terminal command. */
  add(e: AlfredEvent): boolean {
    const run = hookRunOf(e);
    if (run) {
      if (this.lastHook && run.ts < this.lastHook.ts) return false;
      this.lastHook = run;
      return true;
    }
    const act = activityOf(e);
    if (!act || (this.activity && act.ts < this.activity.ts)) return false;
    this.activity = act;
    return true;
  }
}

/** Fires when a hook file (or a file that turns hooks off) is created, changed or deleted, by Alfred or anyone else. */
export function watchHookFiles(workspaceFolder: string, onChange: () => void): vscode.Disposable {
  const watcher = vscode.workspace.createFileSystemWatcher(
    new vscode.RelativePattern(vscode.Uri.file(workspaceFolder), `{${HEALTH_WORKSPACE_FILES.join(',')}}`));
  watcher.onDidCreate(onChange);
  watcher.onDidChange(onChange);
  watcher.onDidDelete(onChange);
  return watcher;
}
