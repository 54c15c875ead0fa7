import { LitElement, css, html } from 'lit';
import type { FailoverLinkView, FailoverView } from '../../../src/protocol/dashboard';
import { t } from '../../shared/l10n';

/** The failover profiles and their chains of models; each link's health once models have been tried. */
export class FailoverChain extends LitElement {
  static override properties = { failover: { attribute: false } };
  declare failover: FailoverView | null;

  static override styles = css`
    :host { display: block; }
    p { margin: 2px 0; color: var(--vscode-descriptionForeground); }
    .profile { font-weight: 600; margin: 6px 0 2px; color: var(--vscode-foreground); }
    ol { margin: 2px 0 6px; padding-left: 20px; }
    .state { color: var(--vscode-descriptionForeground); }
    .active .state { color: var(--vscode-testing-iconPassed, var(--vscode-foreground)); }
    .failing .state { color: var(--vscode-editorWarning-foreground); }
    .unavailable .state { color: var(--vscode-errorForeground); }
    .problem { color: var(--vscode-editorWarning-foreground); }
  `;

  constructor() {
    super();
    this.failover = null;
  }

  override render() {
    const f = this.failover;
    if (!f || f.profiles.length === 0) return html`<p>${t('No profile: @alfred will use the chat\'s model.')}</p>`;
    return html`
      ${f.active === null ? html`<p>${t('No profile active: @alfred uses the chat\'s model until one is chosen.')}</p>` : ''}
      ${f.profiles.map((p) => html`
        <p class="profile">${p.name}${p.name === f.active ? html` · ${t('active')}` : ''}</p>
        <ol aria-label=${t('Failover chain of {0}', p.name)}>${p.links.map((l) => html`<li class=${l.state ?? ''}>${l.label}${this.state(l)}</li>`)}</ol>`)}
      ${(f.problems ?? []).map((m) => html`<p class="problem">${m}</p>`)}
    `;
  }

  private state(l: FailoverLinkView) {
    if (!l.state) return '';
    const text = l.state === 'failing' ? t('failing {0}/2', l.failures ?? 1) : t(l.state);
    return html` <span class="state">· ${text}</span>`;
  }
}
customElements.define('alfred-failover-chain', FailoverChain);
