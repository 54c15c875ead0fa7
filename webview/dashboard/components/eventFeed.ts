import { LitElement, css, html } from 'lit';
import type { EventView } from '../../../src/protocol/dashboard';
import { t } from '../../shared/l10n';

/** The latest events, newest first, filterable by type; each one expands to its JSON. */
export class EventFeed extends LitElement {
  static override properties = { events: { attribute: false }, filter: { state: true } };
  declare events: EventView[];
  declare filter: string;

  static override styles = css`
    :host { display: block; }
    .bar { display: flex; gap: 6px; align-items: center; margin-bottom: 6px; }
    vscode-single-select { flex: 1; }
    ol { list-style: none; margin: 0; padding: 0; }
    details { border-bottom: 1px solid var(--vscode-widget-border, transparent); padding: 3px 0; }
    summary { cursor: pointer; display: flex; gap: 6px; align-items: baseline; }
    summary:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
    .type { font-weight: 600; }
    .PolicyViolation .type, .BudgetExhausted .type { color: var(--vscode-errorForeground); }
    .BudgetWarning .type { color: var(--vscode-editorWarning-foreground); }
    .time { color: var(--vscode-descriptionForeground); font-variant-numeric: tabular-nums; }
    .summary { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
    pre { font-family: var(--vscode-editor-font-family); font-size: 0.9em; white-space: pre-wrap; word-break: break-word;
      background: var(--vscode-textCodeBlock-background); padding: 6px; margin: 4px 0; }
  `;

  constructor() {
    super();
    this.events = [];
    this.filter = '';
  }

  override render() {
    const types = [...new Set(this.events.map((e) => e.type))].sort();
    const shown = this.filter ? this.events.filter((e) => e.type === this.filter) : this.events;
    return html`
      <div class="bar">
        <vscode-single-select aria-label=${t('Filter events by type')} @change=${(e: Event) => { this.filter = (e.target as HTMLSelectElement).value; }}>
          <vscode-option value="" ?selected=${!this.filter}>${t('All events')}</vscode-option>
          ${types.map((ty) => html`<vscode-option value=${ty} ?selected=${ty === this.filter}>${ty}</vscode-option>`)}
        </vscode-single-select>
        <vscode-button secondary @click=${() => this.dispatchEvent(new CustomEvent('open-log', { bubbles: true, composed: true }))}>${t('Open log')}</vscode-button>
      </div>
      ${shown.length === 0 ? html`<p>${t('No events yet. Every governed tool call will show up here.')}</p>` : html`
      <ol aria-label=${t('Events')}>${shown.map((e) => html`
        <li class=${e.type}><details>
          <summary><span class="time">${e.ts.slice(11, 19)}</span><span class="type">${e.type}</span><span class="summary">${e.summary}</span></summary>
          <pre>${e.json}</pre>
        </details></li>`)}
      </ol>`}
    `;
  }
}
customElements.define('alfred-event-feed', EventFeed);
