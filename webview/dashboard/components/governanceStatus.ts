import { LitElement, css, html } from 'lit';
import type { GovernanceView, GovernedAgent } from '../../../src/protocol/dashboard';
import { t } from '../../shared/l10n';

const AGENTS: ReadonlyArray<{ id: GovernedAgent; name: string }> = [
  { id: 'copilot', name: 'Copilot' },
  { id: 'claude', name: 'Claude Code' },
];

/**
 * Whether Copilot and Claude Code run under Alfred's hooks in this workspace, a button to change it
 * (it runs the command, which shows the diff first), and when a hook last ran.
 */
export class GovernanceStatus extends LitElement {
  static override properties = { governance: { attribute: false } };
  declare governance: GovernanceView | null;

  static override styles = css`
    :host { display: block; }
    .agent { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; margin: 4px 0 8px; }
    .name { font-weight: 600; min-width: 7em; }
    .state { flex: 1; color: var(--vscode-descriptionForeground); }
    .state.on { color: var(--vscode-testing-iconPassed, var(--vscode-foreground)); }
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
    return html`
      ${AGENTS.map(({ id, name }) => {
        const on = g[id];
        return html`
          <div class="agent" data-agent=${id}>
            <span class="name">${name}</span>
            <span class="state ${on ? 'on' : ''}">${on ? t('Governed') : t('Not governed')}</span>
            <vscode-button secondary id=${`govern-${id}`} aria-label=${on ? t('Stop governing {0}', name) : t('Govern {0}', name)}
              @click=${() => this.dispatchEvent(new CustomEvent('set-governance', { detail: { agent: id, govern: !on } }))}>
              ${on ? t('Stop governing') : t('Govern')}
            </vscode-button>
          </div>`;
      })}
      <p>${g.copilot || g.claude ? t('Every tool call of a governed agent goes through Alfred\'s hooks, under the active role.') : t('Not governed: Alfred does not see these agents\' tool calls.')}</p>
      <p id="last-hook">${this.lastHook(g)}</p>
    `;
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
