import { LitElement, css, html } from 'lit';
import type { ModelsView, ProviderHealthView } from '../../../src/protocol/models';
import { t } from '../../shared/l10n';

const MARK: Record<ProviderHealthView['state'], string> = { ok: '✓', warn: '⚠', fail: '✗' };

/**
 * Where a first answer comes from: whether any chat model is available, Alfred's providers with
 * their health, a local model server found on its default port (added in one click, then the usual
 * confirmation), and Add Provider. Events: `add-provider`, `add-local` (detail: base URL), `check`.
 */
export class ModelsSetup extends LitElement {
  static override properties = { models: { attribute: false } };
  declare models: ModelsView | null;

  static override styles = css`
    :host { display: block; }
    p { margin: 4px 0; }
    .missing { color: var(--vscode-editorWarning-foreground); }
    .muted { color: var(--vscode-descriptionForeground); }
    ul { margin: 2px 0 6px; padding-left: 0; list-style: none; }
    li { margin: 3px 0; word-break: break-word; }
    .ok { color: var(--vscode-testing-iconPassed, var(--vscode-charts-green)); }
    .warn { color: var(--vscode-editorWarning-foreground); }
    .fail { color: var(--vscode-errorForeground); }
    .local { margin: 6px 0; }
    .actions { display: flex; gap: 6px; flex-wrap: wrap; margin-top: 6px; }
    code { font-family: var(--vscode-editor-font-family); }
  `;

  constructor() {
    super();
    this.models = null;
  }

  override render() {
    const m = this.models;
    if (!m) return html``;
    const fire = (name: string, detail?: string) => this.dispatchEvent(new CustomEvent(name, { detail }));
    return html`
      ${m.usable ? html`<p class="muted" id="models-state" title=${m.chatModels.join('\n')}>${t('{0} models are available to the chat, {1} of them Alfred\'s.', m.chatModels.length, m.alfredModels.length)}</p>`
        : html`<p class="missing" id="models-state">${m.checking ? t('Looking for a model…') : t('No chat model is available, so @alfred cannot answer yet.')}</p>`}
      ${m.local.map((l) => html`
        <div class="local" data-base-url=${l.baseUrl}>
          <p>${t('{0} answers on this machine at {1}', l.label, l.baseUrl)}${l.models.length ? html` <span class="muted">(${l.models.slice(0, 3).join(', ')}${l.models.length > 3 ? '…' : ''})</span>` : html` <span class="muted">(${t('no model pulled yet')})</span>`}</p>
          <vscode-button class="use-local" @click=${() => fire('add-local', l.baseUrl)}>${t('Use {0}', l.label)}</vscode-button>
        </div>`)}
      ${m.providers.length ? html`<ul id="providers">${m.providers.map((p) => html`
        <li data-provider=${p.name} data-state=${p.state}><span class=${p.state}>${MARK[p.state]}</span> <code>${p.name}</code>: ${p.detail}</li>`)}</ul>`
        : html`<p class="muted">${t('Alfred has no provider of its own yet: a local server or an API with your key.')}</p>`}
      <div class="actions">
        <vscode-button ?secondary=${m.local.length > 0} id="add-provider" @click=${() => fire('add-provider')}>${t('Add Provider…')}</vscode-button>
        <vscode-button secondary id="check-models" ?disabled=${m.checking} @click=${() => fire('check')}>${t('Check again')}</vscode-button>
      </div>`;
  }
}
customElements.define('alfred-models-setup', ModelsSetup);
