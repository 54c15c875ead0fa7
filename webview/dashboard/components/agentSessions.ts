import { LitElement, css, html } from 'lit';
import type { AgentSessionView, AgentUsageView } from '../../../src/protocol/dashboard';
import { t } from '../../shared/l10n';
import { cost, sourceLabel, tokens } from './usageFormat';

const MAX_SHOWN = 8;

/** A shared style for the usage lists: a label column and a value column, in the theme's colours. */
export const usageListStyles = css`
  :host { display: block; }
  ul { list-style: none; margin: 0; padding: 0; }
  li { border-bottom: 1px solid var(--vscode-widget-border, transparent); padding: 4px 0 6px; }
  .head { display: flex; gap: 6px; align-items: baseline; flex-wrap: wrap; }
  .name { font-weight: 600; }
  .id, .models { color: var(--vscode-descriptionForeground); font-family: var(--vscode-editor-font-family); font-size: 0.9em; word-break: break-all; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 1px 8px; margin: 3px 0 0; }
  dt { color: var(--vscode-descriptionForeground); }
  dd { margin: 0; font-variant-numeric: tabular-nums; word-break: break-word; }
  .refused { color: var(--vscode-editorWarning-foreground); }
  p { margin: 4px 0; color: var(--vscode-descriptionForeground); }
`;

/**
 * One row per agent session of the day: who, which models, model calls, tokens, cost measured apart
 * from estimated (the fallback price named where it was used), and the tool and shell calls its hooks let through Alfred.
 */
export class AgentSessions extends LitElement {
  static override properties = { usage: { attribute: false } };
  declare usage: AgentUsageView | null;

  static override styles = usageListStyles;

  constructor() {
    super();
    this.usage = null;
  }

  override render() {
    const u = this.usage;
    if (!u) return html``;
    if (u.sessions.length === 0) return html`<p>${t('No agent sessions today (UTC day {0}).', u.day)}</p>`;
    // The latest active first; a busy day's older sessions are left to `alfred usage`.
    const shown = [...u.sessions].sort((a, b) => Date.parse(b.lastSeen) - Date.parse(a.lastSeen)).slice(0, MAX_SHOWN);
    const more = u.sessions.length - shown.length;
    return html`<ul aria-label=${t('Agent sessions today')}>${shown.map((s) => this.session(s))}</ul>
      ${more > 0 ? html`<p>${t('{0} more sessions today: alfred usage --since {1} lists them all.', more, u.day)}</p>` : ''}
      <p>${t('Measured: tokens the agent reported, priced from Alfred\'s table. Estimated: tokens Alfred counted. ~ and fallback price: the model has no price, so Alfred\'s fallback price was used.')}</p>`;
  }

  private session(s: AgentSessionView) {
    // `(chat)`, `(tool)`: a source that names no session; the agent's label says it all.
    const id = s.session.startsWith('(') ? '' : s.session.length > 12 ? s.session.slice(0, 8) : s.session;
    return html`<li data-session=${s.session}>
      <div class="head"><span class="name">${sourceLabel(s.source)}</span>${id ? html`<code class="id" title=${s.session}>${id}</code>` : ''}
        <span class="id" title=${t('Last active (UTC)')}>${s.lastSeen.slice(11, 19)}</span></div>
      ${s.models.length ? html`<div class="models">${s.models.join(', ')}</div>` : ''}
      <dl>
        <dt>${t('Model calls')}</dt><dd data-field="calls">${s.calls}</dd>
        <dt>${t('Tokens')}</dt><dd data-field="tokens">${tokens(s)}</dd>
        <dt>${t('Cost')}</dt><dd data-field="cost">${cost(s)}</dd>
        <dt>${t('Tool calls')}</dt><dd data-field="tools">${s.toolCalls}${s.refused ? html` <span class="refused">(${t('{0} refused', s.refused)})</span>` : ''}</dd>
        <dt>${t('Shell calls')}</dt><dd data-field="shell">${s.shellCalls}</dd>
      </dl>
    </li>`;
  }
}
customElements.define('alfred-agent-sessions', AgentSessions);
