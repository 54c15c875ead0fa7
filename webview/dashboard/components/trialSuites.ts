import { LitElement, css, html } from 'lit';
import type { TrialComparisonView, TrialMetricId, TrialMetricView, TrialSuiteView, TrialsView } from '../../../src/protocol/trials';
import { t } from '../../shared/l10n';

const LABEL: Record<TrialMetricId, string> = {
  acceptance: 'Acceptance rate', escapedDefects: 'Escaped defects', duplicatedToolActions: 'Duplicated tool actions',
  tokens: 'Tokens per trial', costUsd: 'Cost per trial', wallMs: 'Wall time per trial',
};

/** Decimals in the display language (the host writes it as the page's `lang`). */
function decimal(v: number, digits: number): string {
  const locale = document.documentElement.lang || 'en';
  try {
    return new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(v);
  } catch {
    return v.toFixed(digits);
  }
}

/** A metric's value as its unit reads: a rate in percent, cost in dollars, wall time in seconds. */
function value(m: TrialMetricView, v: number, signed = false): string {
  // A word joiner keeps the sign on the number's line.
  const mark = signed ? (v < 0 ? '−' : '+') : v < 0 ? '−' : '';
  const sign = mark ? `${mark}\u2060` : '';
  const a = Math.abs(v);
  if (m.kind === 'rate') return `${sign}${decimal(a * 100, 1)}${signed ? ' pt' : '%'}`;
  if (m.metric === 'costUsd') return `${sign}$${decimal(a, 4)}`;
  if (m.metric === 'wallMs') return `${sign}${decimal(a / 1000, 1)} s`;
  return `${sign}${decimal(a, m.metric === 'tokens' ? 0 : 2)}`;
}

/**
 * Each suite with recorded trials: its conditions' counts, and each condition against the control —
 * per metric both means with their 95% interval and counts, the difference and whether it is a change,
 * or why the comparison was refused, with the sentences `alfred compare` prints (its conclusions and notes).
 */
export class TrialSuites extends LitElement {
  static override properties = { trials: { attribute: false } };
  declare trials: TrialsView | null;

  static override styles = css`
    :host { display: block; }
    h3 { font-size: 1em; margin: 6px 0 2px; }
    ul { list-style: none; margin: 0; padding: 0; }
    p { margin: 4px 0; }
    .meta { color: var(--vscode-descriptionForeground); }
    .refused { color: var(--vscode-editorWarning-foreground); }
    .metrics { margin: 2px 0 6px; }
    .metric { border-bottom: 1px solid var(--vscode-widget-border, transparent); padding: 3px 0; }
    .head { display: flex; gap: 6px; align-items: baseline; flex-wrap: wrap; }
    .label { font-weight: 600; }
    dl { display: grid; grid-template-columns: max-content 1fr; gap: 1px 8px; margin: 2px 0 0; }
    dt { color: var(--vscode-descriptionForeground); }
    dd { margin: 0; font-variant-numeric: tabular-nums; word-break: break-word; }
    .better { color: var(--vscode-testing-iconPassed, var(--vscode-charts-green)); }
    .worse { color: var(--vscode-errorForeground); }
    .interval { display: block; color: var(--vscode-descriptionForeground); font-size: 0.9em; }
  `;

  constructor() {
    super();
    this.trials = null;
  }

  override render() {
    if (!this.trials) return html``;
    if (this.trials.suites.length === 0) return html`<p class="meta">${t('No trials recorded yet: alfred trial run runs the suite of .alfred/trials.toml.')}</p>`;
    return html`${this.trials.suites.map((s) => this.suite(s))}`;
  }

  private suite(s: TrialSuiteView) {
    return html`<div class="suite" data-suite=${s.name}>
      <h3>${t('Suite {0}', s.name)}</h3>
      <ul>${s.conditions.map((c) => html`<li data-condition=${c.name}>${t('{0}: accepted {1} of {2}', c.name, c.accepted, c.trials)}${c.control ? ` ${t('(control)')}` : ''}${c.interrupted ? html` <span class="meta">· ${t('interrupted: {0}', c.interrupted)}</span>` : ''}</li>`)}</ul>
      ${s.suiteChanges ? html`<p class="refused">${t('The suite changed {0} times between runs.', s.suiteChanges)}</p>` : ''}
      ${s.corrupt ? html`<p class="refused">${t('{0} unreadable lines left out.', s.corrupt)}</p>` : ''}
      ${s.comparisons.map((c) => this.comparison(c))}
    </div>`;
  }

  private comparison(c: TrialComparisonView) {
    const title = html`<p><strong>${t('{0} against {1}', c.treatment, c.control)}</strong></p>`;
    const notes = c.notes.map((n) => html`<p class="note meta">${t('Note: {0}', n)}</p>`);
    if (c.refused) {
      return html`<div class="comparison" data-treatment=${c.treatment}>${title}
        <p class="refused">${t('Refused: this comparison would not be controlled.')}</p>
        <ul>${c.reasons.map((r) => html`<li class="reason">${r}</li>`)}</ul>${notes}</div>`;
    }
    // The written conclusions come first, as a reader wants them: did it help, how sure, at what cost.
    return html`<div class="comparison" data-treatment=${c.treatment}>${title}
      <p class="meta">${c.component ? t('Component changed: {0}', c.component) : t('No component changed.')}</p>
      ${c.conclusions.map((s) => html`<p class="conclusion">${s}</p>`)}
      <ul class="metrics">${c.metrics.map((m) => this.metric(m))}</ul>${notes}</div>`;
  }

  /** One metric: the difference and its verdict first, then both sides; narrow enough for the sidebar. */
  private metric(m: TrialMetricView) {
    const side = (e: TrialMetricView['control']) => (e
      ? html`${value(m, e.mean)} <span class="meta">(${m.kind === 'rate' ? t('{0} of {1}', e.successes ?? 0, e.n) : t('n = {0}', e.n)})</span>
        <span class="interval">${t('95% interval {0} to {1}', value(m, e.low), value(m, e.high))}</span>`
      : html`<span class="meta">${t('not enough trials')}</span>`);
    const d = m.difference;
    const good = !d || d.noChange ? '' : (d.estimate > 0) === (m.better === 'higher') ? 'better' : 'worse';
    return html`<li class="metric" data-metric=${m.metric}>
      <div class="head"><span class="label">${t(LABEL[m.metric])}</span>
        ${d ? html`<span>${value(m, d.estimate, true)}</span> <span class=${good || 'meta'}>${good ? t(good) : t('no change')}</span>` : html`<span class="meta">${t('not enough trials')}</span>`}</div>
      <dl>
        <dt>${t('Control')}</dt><dd>${side(m.control)}</dd>
        <dt>${t('Treatment')}</dt><dd>${side(m.treatment)}</dd>
        ${d ? html`<dt>${t('Difference')}</dt><dd>${t('95% interval {0} to {1}', value(m, d.low, true), value(m, d.high, true))}</dd>` : ''}
      </dl>
    </li>`;
  }
}
customElements.define('alfred-trial-suites', TrialSuites);
