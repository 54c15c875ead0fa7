import { LitElement, css, html, nothing } from 'lit';
import type { BudgetView, DimensionView } from '../../../src/protocol/dashboard';
import { dimensionText } from '../../../src/protocol/dashboardFormat';
import { t } from '../../shared/l10n';
import { count, dollars } from '../../shared/numbers';

/** One meter per budget dimension, coloured by its signal. Updates in place on every charge. */
export class BudgetGauges extends LitElement {
  static override properties = { budget: { attribute: false } };
  declare budget: BudgetView | null;

  static override styles = css`
    :host { display: block; }
    .gauge { margin: 6px 0 10px; }
    .label { display: flex; justify-content: space-between; gap: 8px; font-size: var(--vscode-font-size); }
    .name { font-weight: 600; }
    .value { color: var(--vscode-descriptionForeground); font-variant-numeric: tabular-nums; }
    .track { height: 6px; margin-top: 4px; border-radius: 3px; overflow: hidden;
      background: var(--vscode-editorWidget-border, var(--vscode-widget-border, rgba(128,128,128,.35))); }
    .fill { height: 100%; width: 0; transition: width 120ms ease-out;
      background: var(--vscode-progressBar-background, var(--vscode-charts-blue)); }
    .WARNING .fill { background: var(--vscode-editorWarning-foreground, var(--vscode-charts-yellow)); }
    .EXHAUSTED .fill { background: var(--vscode-editorError-foreground, var(--vscode-charts-red)); }
    .line { font-family: var(--vscode-editor-font-family); font-size: 0.9em; color: var(--vscode-descriptionForeground);
      word-break: break-word; margin-top: 4px; }
    @media (forced-colors: active) { .track { border: 1px solid CanvasText; } .fill { background: Highlight; } }
  `;

  constructor() {
    super();
    this.budget = null;
  }

  override render() {
    const b = this.budget;
    if (!b) return html`<p>${t('No budget yet: open a folder to govern it.')}</p>`;
    // `~` on the spend that includes the fallback price, never on the limit.
    const money = (n: number) => dollars(n, b.costEstimated);
    return html`
      ${this.gauge('tokens', t('Context tokens'), b.dimensions.tokens, count)}
      ${this.gauge('shell', t('Shell calls'), b.dimensions.shell, count)}
      ${this.gauge('cost', b.costEstimated ? t('Cost (estimated)') : t('Cost'), b.dimensions.cost, money, dollars)}
      <div class="line" aria-label=${t('Budget line')}>${b.line}</div>
    `;
  }

  private gauge(id: string, name: string, d: DimensionView, fmt: (n: number) => string, limitFmt = fmt) {
    // A limit of 0 is a rule (the role does not do this at all), not an empty budget: no bar to fill.
    const forbidden = d.limit === 0;
    const width = forbidden ? 0 : Math.min(100, d.percent);
    const value = dimensionText(d, fmt, { notAllowed: t('not allowed'), notAllowedUsed: t('not allowed · {0} used') }, limitFmt);
    return html`
      <div class="gauge ${d.signal} ${forbidden ? 'forbidden' : ''}" data-dimension=${id}>
        <div class="label">
          <span class="name">${name}</span>
          <span class="value">${value}${d.signal === 'OK' || forbidden ? nothing : html` · ${d.signal}`}</span>
        </div>
        ${forbidden ? nothing : html`
        <div class="track" role="meter" aria-label=${name} aria-valuemin="0" aria-valuemax="100"
          aria-valuenow=${width} aria-valuetext="${value}, ${d.signal}">
          <div class="fill" style="width:${width}%"></div>
        </div>`}
      </div>`;
  }
}
customElements.define('alfred-budget-gauges', BudgetGauges);
