import { LitElement, css, html } from 'lit';
import type { EventView } from '../../../src/protocol/dashboard';
import { t } from '../../shared/l10n';

/**
 * The latest events, newest first, filterable by type: one sentence each (worded by the host), and the
 * whole record on demand — each row is a <details>, so Tab reaches it and Enter or Space opens it.
 */
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
    /* A row reads like a tree item of VS Code's own views: a chevron, then the sentence, wrapped, never cut. */
    summary { cursor: pointer; list-style: none; display: grid; grid-template-columns: 16px auto 1fr; column-gap: 4px; align-items: baseline; }
    summary::-webkit-details-marker { display: none; }
    summary:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
    .chevron { transition: transform 100ms ease-out; align-self: start; }
    details[open] .chevron { transform: rotate(90deg); }
    .time { color: var(--vscode-descriptionForeground); font-variant-numeric: tabular-nums; }
    .sentence { min-width: 0; overflow-wrap: anywhere; }
    .type { grid-column: 3; font-size: 0.9em; color: var(--vscode-descriptionForeground); }
    .PolicyViolation .sentence, .BudgetExhausted .sentence, .HookError .sentence { color: var(--vscode-errorForeground); }
    .BudgetWarning .sentence, .SpendWarning .sentence { color: var(--vscode-editorWarning-foreground); }
    pre { font-family: var(--vscode-editor-font-family); font-size: 0.9em; white-space: pre-wrap; word-break: break-word;
      background: var(--vscode-textCodeBlock-background); padding: 6px; margin: 4px 0 4px 20px; }
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
          <summary title=${t('{0} (UTC): show the record', e.ts)}><vscode-icon class="chevron" name="chevron-right"></vscode-icon><span class="time">${e.ts.slice(11, 19)}</span><span class="sentence">${e.summary}</span><span class="type">${e.type}</span></summary>
          <pre aria-label=${t('The record of this event')}>${e.json}</pre>
        </details></li>`)}
      </ol>`}
    `;
  }
}
customElements.define('alfred-event-feed', EventFeed);
