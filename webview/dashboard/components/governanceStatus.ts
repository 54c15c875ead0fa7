import { LitElement, css, html } from 'lit';
import type { AgentGovernanceView, GovernanceView } from '../../../src/protocol/dashboard';
import { t } from '../../shared/l10n';

/**
 * Each governed agent: whether its hooks are Alfred's and really in force (the host says why not, in
 * the user's language), a button to govern it or stop (it runs the command, which shows the diff
 * first), notes and warnings; and when a hook last ran.
 */
export class GovernanceStatus extends LitElement {
  static override properties = { governance: { attribute: false } };
  declare governance: GovernanceView | null;

  static override styles = css`
    :host { display: block; }
    .agent { margin: 4px 0 8px; }
    /* The button keeps its place at the right of every row, and the state its place under the name:
       beside it when it fit, the rows of a narrow sidebar read unlike one another. */
    .line { display: grid; grid-template-columns: minmax(0, 1fr) auto; align-items: center; column-gap: 8px; }
    .who { display: flex; flex-direction: column; }
    .name { font-weight: 600; }
    .state { color: var(--vscode-descriptionForeground); }
    .state.governed { color: var(--vscode-testing-iconPassed, var(--vscode-foreground)); }
    .state.not-in-force { color: var(--vscode-editorWarning-foreground); }
    ul { margin: 2px 0 0; padding-left: 18px; }
    li { color: var(--vscode-descriptionForeground); }
    li.warning { color: var(--vscode-editorWarning-foreground); }
    p { margin: 4px 0; color: var(--vscode-descriptionForeground); }
    .failed { color: var(--vscode-editorWarning-foreground); }
  `;

  constructor() {
    super();
    this.governance = null;
  }

  override render() {
    const g = this.governance;
    if (!g) return html``;
    const any = g.agents.some((a) => a.state !== 'not-governed');
    return html`
      ${g.agents.map((a) => this.agent(a))}
      <p>${any ? t('Every tool call of a governed agent goes through Alfred\'s hooks, under the active role.') : t('Not governed: Alfred does not see these agents\' tool calls.')}</p>
      <p id="last-hook">${this.lastHook(g)}</p>
      <p id="sandbox" class=${g.sandbox.state === 'kernel' ? '' : 'failed'}>${g.sandbox.text}</p>
      <p id="vscode-sandbox" class=${g.vscodeSandbox.short ? 'failed' : ''}>${g.vscodeSandbox.text}</p>
      ${g.vscodeSandbox.short ? html`<vscode-button secondary id="configure-vscode-sandbox"
        @click=${() => this.dispatchEvent(new CustomEvent('configure-vscode-sandbox'))}>${t('Put Alfred\'s Rules in VS Code\'s Sandbox')}</vscode-button>` : ''}
    `;
  }

  private agent(a: AgentGovernanceView) {
    const installed = a.state !== 'not-governed';
    return html`
      <div class="agent" data-agent=${a.id} data-state=${a.state}>
        <div class="line">
          <span class="who">
            <span class="name" title=${a.hookFile}>${a.label}</span>
            <span class="state ${a.state}">${a.stateText}</span>
          </span>
          <vscode-button secondary id=${`govern-${a.id}`} aria-label=${installed ? t('Stop governing {0}', a.label) : t('Govern {0}', a.label)}
            @click=${() => this.dispatchEvent(new CustomEvent('set-governance', { detail: { agent: a.id, govern: !installed } }))}>
            ${installed ? t('Stop governing') : t('Govern')}
          </vscode-button>
        </div>
        ${a.notes.length || a.warnings.length ? html`<ul>
          ${a.warnings.map((w) => html`<li class="warning">${w}</li>`)}
          ${a.notes.map((n) => html`<li class="note">${n}</li>`)}
        </ul>` : ''}
      </div>`;
  }

  private lastHook(g: GovernanceView) {
    const h = g.lastHook;
    if (!h) return t('No hook has run in this workspace yet.');
    const when = `${h.ts.slice(0, 10)} ${h.ts.slice(11, 19)}`;
    const what = h.tool ? `${h.event} · ${h.tool}` : h.event;
    return html`${t('Last hook: {0}, {1}', what, when)}${h.failed ? html` <span class="failed">${t('(Alfred failed; the call went ahead)')}</span>` : ''}`;
  }
}
customElements.define('alfred-governance-status', GovernanceStatus);
