import { LitElement, css, html, nothing } from 'lit';
import type { TeamView } from '../../../src/protocol/dashboard';
import { t } from '../../shared/l10n';

/**
 * Team budgets beside the personal one: each with its exact line, coloured by its signal, and the
 * team's latest refusals, from any developer's window.
 */
export class TeamBudgets extends LitElement {
  static override properties = { team: { attribute: false } };
  declare team: TeamView | null;

  static override styles = css`
    :host { display: block; margin-top: 8px; }
    h3 { font-size: var(--vscode-font-size); margin: 8px 0 4px; }
    .line { font-family: var(--vscode-editor-font-family); font-size: 0.9em; word-break: break-word; margin: 2px 0; }
    .WARNING { color: var(--vscode-editorWarning-foreground); }
    .EXHAUSTED { color: var(--vscode-editorError-foreground); }
    .muted { color: var(--vscode-descriptionForeground); }
    ul { margin: 2px 0; padding-left: 16px; }
  `;

  constructor() {
    super();
    this.team = null;
  }

  override render() {
    const tv = this.team;
    if (!tv) return nothing;
    return html`
      <h3>${t('Team budgets ({0})', tv.team)}</h3>
      ${tv.error ? html`<p class="muted" role="status">${t('The team ledger cannot be reached: {0}', tv.error)}</p>` : nothing}
      ${!tv.error && tv.budgets.length === 0 ? html`<p class="muted">${t('No team budget applies to this role.')}</p>` : nothing}
      ${tv.budgets.map((b) => html`<div class="line ${b.signal}" data-team-budget=${b.name}>${b.line}</div>`)}
      ${tv.refusals.length === 0 ? nothing : html`
        <h3>${t('Refused across the team')}</h3>
        <ul>${tv.refusals.map((r) => html`<li data-team-refusal=${r.id}><span class="muted">${t('{0} on {1}', r.user, r.machine)}:</span> ${r.summary}</li>`)}</ul>`}
    `;
  }
}
customElements.define('alfred-team-budgets', TeamBudgets);
