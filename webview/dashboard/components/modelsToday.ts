import { LitElement, html } from 'lit';
import type { AgentUsageView, UsageTotalsView } from '../../../src/protocol/dashboard';
import { t } from '../../shared/l10n';
import { usageListStyles } from './agentSessions';
import { cost, tokens } from './usageFormat';

/** The day's model calls per model, across agent sessions: calls, tokens, cost (the fallback price named where it was used). */
export class ModelsToday extends LitElement {
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
    if (u.models.length === 0) return html`<p>${t('No model calls recorded today.')}</p>`;
    return html`<ul aria-label=${t('Models today')}>${u.models.map((m) => this.model(m))}</ul>`;
  }

  private model(m: { model: string } & UsageTotalsView) {
    return html`<li data-model=${m.model}>
      <div class="head"><span class="name">${m.model}</span></div>
      <dl>
        <dt>${t('Model calls')}</dt><dd data-field="calls">${m.calls}</dd>
        <dt>${t('Tokens')}</dt><dd data-field="tokens">${tokens(m)}</dd>
        <dt>${t('Cost')}</dt><dd data-field="cost">${cost(m)}</dd>
      </dl>
    </li>`;
  }
}
customElements.define('alfred-models-today', ModelsToday);
