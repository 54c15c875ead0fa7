import { LitElement, css, html } from 'lit';
import type { OperationView } from '../../../src/protocol/dashboard';
import { t } from '../../shared/l10n';

/**
 * Operations whose outcome is unknown (a timeout, a closed window, a crash). Alfred never re-runs
 * them; the user looks at the effect and says how each really ended.
 */
export class UnknownOperations extends LitElement {
  static override properties = { operations: { attribute: false } };
  declare operations: OperationView[];

  static override styles = css`
    :host { display: block; }
    ul { list-style: none; margin: 0; padding: 0; }
    li { border-bottom: 1px solid var(--vscode-widget-border, transparent); padding: 4px 0; }
    code { font-family: var(--vscode-editor-font-family); word-break: break-word; }
    .note { color: var(--vscode-descriptionForeground); margin: 2px 0; }
    .actions { display: flex; gap: 6px; flex-wrap: wrap; }
  `;

  constructor() {
    super();
    this.operations = [];
  }

  override render() {
    if (this.operations.length === 0) return html``;
    return html`
      <p>${t('These operations were stopped part-way; their effect is unknown. Look, then say how each ended: Alfred will not run them again.')}</p>
      <ul aria-label=${t('Operations to reconcile')}>${this.operations.map((o) => html`<li>
        <code>${o.summary}</code>
        <p class="note">${new Date(o.createdAt).toLocaleString()}${o.note ? ` · ${o.note}` : ''}</p>
        <div class="actions">
          <vscode-button secondary aria-label=${t('Mark {0} as succeeded', o.summary)} @click=${() => this.reconcile(o.id, 'succeeded')}>${t('It succeeded')}</vscode-button>
          <vscode-button secondary aria-label=${t('Mark {0} as failed', o.summary)} @click=${() => this.reconcile(o.id, 'failed')}>${t('It failed')}</vscode-button>
        </div>
      </li>`)}</ul>`;
  }

  private reconcile(id: string, state: 'succeeded' | 'failed') {
    this.dispatchEvent(new CustomEvent('reconcile', { detail: { id, state }, bubbles: true, composed: true }));
  }
}
customElements.define('alfred-unknown-operations', UnknownOperations);
