import { LitElement, css, html, nothing } from 'lit';
import type { DailySpendView } from '../../../src/protocol/dashboard';
import { t } from '../../shared/l10n';
import { dollars } from '../../shared/numbers';
import { spent } from './usageFormat';

/** Today's spend (UTC) against alfred.dailyBudgetUsd: a gauge when a cap is set, the amount otherwise. */
export class DailySpend extends LitElement {
  static override properties = { spend: { attribute: false } };
  declare spend: DailySpendView | null;

  static override styles = css`
    :host { display: block; margin: 6px 0 10px; }
    .label { display: flex; justify-content: space-between; gap: 8px; }
    .name { font-weight: 600; }
    .value { color: var(--vscode-descriptionForeground); font-variant-numeric: tabular-nums; }
    .track { height: 6px; margin-top: 4px; border-radius: 3px; overflow: hidden;
      background: var(--vscode-editorWidget-border, var(--vscode-widget-border, rgba(128,128,128,.35))); }
    .fill { height: 100%; transition: width 120ms ease-out; background: var(--vscode-progressBar-background, var(--vscode-charts-blue)); }
    .WARNING .fill { background: var(--vscode-editorWarning-foreground, var(--vscode-charts-yellow)); }
    .EXHAUSTED .fill { background: var(--vscode-editorError-foreground, var(--vscode-charts-red)); }
    .note { color: var(--vscode-descriptionForeground); margin: 2px 0 0; }
    @media (forced-colors: active) { .track { border: 1px solid CanvasText; } .fill { background: Highlight; } }
  `;

  constructor() {
    super();
    this.spend = null;
  }

  override render() {
    const s = this.spend;
    if (!s) return nothing;
    const money = (n: number) => spent(n, s.estimated);
    if (s.capUsd === null) {
      return html`<div class="label" data-dimension="daily"><span class="name">${t('Spent today')}</span><span class="value">${money(s.spentUsd)}</span></div>
        <p class="note">${t('no daily cap set')}</p>`;
    }
    const percent = s.percent ?? 0;
    const width = Math.min(100, percent);
    const text = `${money(s.spentUsd)} / ${dollars(s.capUsd)} (${percent}%)`;
    return html`
      <div class=${s.signal} data-dimension="daily">
        <div class="label"><span class="name">${t('Spent today')}</span><span class="value">${text}${s.signal === 'OK' ? nothing : html` · ${s.signal}`}</span></div>
        <div class="track" role="meter" aria-label=${t('Daily spend')} aria-valuemin="0" aria-valuemax="100" aria-valuenow=${width} aria-valuetext="${text}, ${s.signal}">
          <div class="fill" style="width:${width}%"></div>
        </div>
        <p class="note">${t('Daily cap (UTC day {0}): advisory, it warns and never blocks.', s.day)}</p>
      </div>`;
  }
}
customElements.define('alfred-daily-spend', DailySpend);
