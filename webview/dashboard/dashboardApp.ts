import { LitElement, css, html } from 'lit';
import {
  ConfigureVscodeSandboxCommand, EditRoleCommand, EventNotification, NewRoleCommand, StatePatchNotification, OpenEventLogCommand, ReadyCommand, ReconcileOperationCommand, ResetBudgetCommand, SetGovernanceCommand, StateNotification, SwitchRoleCommand, VerifyCompletionCommand,
  type DashboardState, type GovernedAgent,
} from '../../src/protocol/dashboard';
import { AuditMcpCommand } from '../../src/protocol/mcp';
import { AddLocalServerCommand, AddProviderCommand, CheckModelsCommand } from '../../src/protocol/models';
import { onNotification, send } from '../shared/host';
import { t } from '../shared/l10n';
import './components/activePack';
import './components/agentSessions';
import './components/budgetGauges';
import './components/teamBudgets';
import './components/completionRecords';
import './components/dailySpend';
import './components/eventFeed';
import './components/failoverChain';
import './components/governanceStatus';
import './components/mcpServers';
import './components/modelsSetup';
import './components/modelsToday';
import './components/roleSwitcher';
import './components/trialSuites';
import './components/unknownOperations';

const MAX_EVENTS = 200;

/**
 * The sidebar dashboard: says it is ready, renders the host's snapshot, and merges the host's patches
 * (one section's fields) and new events. It keeps only UI state of its own (a filter, what is open).
 */
export class DashboardApp extends LitElement {
  static override properties = { state: { state: true } };
  declare state: DashboardState | null;

  static override styles = css`
    :host { display: block; padding: 4px 0 12px; color: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
    section { margin: 0 0 14px; }
    h2 { font-size: 11px; font-weight: 700; text-transform: uppercase; letter-spacing: .04em; margin: 10px 0 6px;
      color: var(--vscode-sideBarSectionHeader-foreground, var(--vscode-foreground)); }
    .actions { display: flex; gap: 6px; flex-wrap: wrap; margin-top: 6px; }
    .notice { color: var(--vscode-descriptionForeground); }
    .untrusted { color: var(--vscode-editorWarning-foreground); }
  `;

  constructor() {
    super();
    this.state = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    onNotification(StateNotification, (s) => { this.state = s; });
    onNotification(StatePatchNotification, (p) => { if (this.state) this.state = { ...this.state, ...p }; });
    onNotification(EventNotification, (e) => {
      if (this.state) this.state = { ...this.state, events: [e, ...this.state.events].slice(0, MAX_EVENTS) };
    });
    send(ReadyCommand);
  }

  override render() {
    const s = this.state;
    if (!s) return html`<p class="notice">${t('Loading…')}</p>`;
    if (!s.workspace) return html`<p class="notice">${t('Open a folder: Alfred governs the agents working in a workspace.')}</p>`;
    // Without a usable model it comes first: nothing else on the page gets a first answer.
    const noModel = s.models !== null && !s.models.usable;
    const models = s.models ? html`
      <section aria-labelledby="setup-models-h" id="models-setup">
        <h2 id="setup-models-h">${t('Models')}</h2>
        <alfred-models-setup .models=${s.models} @add-provider=${() => send(AddProviderCommand)}
          @add-local=${(e: CustomEvent<string>) => send(AddLocalServerCommand, { baseUrl: e.detail })} @check=${() => send(CheckModelsCommand)}></alfred-models-setup>
      </section>` : '';
    return html`
      ${s.trusted ? '' : html`<p class="untrusted">${t('Restricted mode: project roles and the alfred.role setting are ignored.')}</p>`}
      ${noModel ? models : ''}
      <section aria-labelledby="budget-h">
        <h2 id="budget-h">${t('Budget')}</h2>
        <alfred-budget-gauges .budget=${s.budget}></alfred-budget-gauges>
        <alfred-team-budgets .team=${s.team}></alfred-team-budgets>
        <alfred-daily-spend .spend=${s.dailySpend}></alfred-daily-spend>
        <div class="actions"><vscode-button secondary @click=${() => send(ResetBudgetCommand)}>${t('Reset budget')}</vscode-button></div>
      </section>
      <section aria-labelledby="role-h">
        <h2 id="role-h">${t('Role')}</h2>
        <alfred-role-switcher .roles=${s.roles} .active=${s.activeRole} .problems=${s.problems}
          @switch-role=${(e: CustomEvent<string>) => send(SwitchRoleCommand, { role: e.detail })}></alfred-role-switcher>
        <div class="actions">
          <vscode-button secondary id="new-role" @click=${() => send(NewRoleCommand)}>${t('New role…')}</vscode-button>
          <vscode-button secondary id="edit-role" @click=${() => send(EditRoleCommand, { role: s.activeRole })}>${t('Edit role…')}</vscode-button>
        </div>
      </section>
      <section aria-labelledby="sessions-h">
        <h2 id="sessions-h">${t('Agent sessions')}</h2>
        <alfred-agent-sessions .usage=${s.agentUsage}></alfred-agent-sessions>
      </section>
      <section aria-labelledby="models-h">
        <h2 id="models-h">${t('Models today')}</h2>
        <alfred-models-today .usage=${s.agentUsage}></alfred-models-today>
      </section>
      ${noModel ? '' : models}
      <section aria-labelledby="governance-h">
        <h2 id="governance-h">${t('Governance')}</h2>
        <alfred-governance-status .governance=${s.governance}
          @set-governance=${(e: CustomEvent<{ agent: GovernedAgent; govern: boolean }>) => send(SetGovernanceCommand, e.detail)}
          @configure-vscode-sandbox=${() => send(ConfigureVscodeSandboxCommand)}></alfred-governance-status>
      </section>
      <section aria-labelledby="mcp-h">
        <h2 id="mcp-h">${t('MCP servers')}</h2>
        <alfred-mcp-servers .mcp=${s.mcp} @audit=${() => send(AuditMcpCommand)}></alfred-mcp-servers>
      </section>
      <section aria-labelledby="failover-h">
        <h2 id="failover-h">${t('Failover chain')}</h2>
        <alfred-failover-chain .failover=${s.failover}></alfred-failover-chain>
      </section>
      <section aria-labelledby="pack-h">
        <h2 id="pack-h">${t('Active pack')}</h2>
        <alfred-active-pack .pack=${s.pack}></alfred-active-pack>
      </section>
      <section aria-labelledby="completions-h">
        <h2 id="completions-h">${t('Completion records')}</h2>
        <alfred-unknown-operations .operations=${s.operations}
          @reconcile=${(e: CustomEvent<{ id: string; state: 'succeeded' | 'failed' }>) => send(ReconcileOperationCommand, e.detail)}></alfred-unknown-operations>
        <alfred-completion-records .completions=${s.completions}></alfred-completion-records>
        <div class="actions"><vscode-button secondary @click=${() => send(VerifyCompletionCommand)}>${t('Verify completion')}</vscode-button></div>
      </section>
      <section aria-labelledby="trials-h">
        <h2 id="trials-h">${t('Trials')}</h2>
        <alfred-trial-suites .trials=${s.trials}></alfred-trial-suites>
      </section>
      <section aria-labelledby="events-h">
        <h2 id="events-h">${t('Events')}</h2>
        <alfred-event-feed .events=${s.events} @open-log=${() => send(OpenEventLogCommand)}></alfred-event-feed>
      </section>
    `;
  }
}
customElements.define('alfred-dashboard', DashboardApp);
