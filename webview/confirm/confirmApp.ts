import { LitElement, css, html } from 'lit';
import {
  CancelCommand, ConfirmCommand, ConfirmStateNotification, GetConfirmStateRequest, OpenDiffCommand, ReadyCommand,
  type ConfirmFileView, type ConfirmState,
} from '../../src/protocol/confirm';
import { onNotification, requestFromHost, send } from '../shared/host';
import { t } from '../shared/l10n';
import { backupNote } from './backupNote';
import './diffBlock';

/** The confirmation panel: every file's diff, then Confirm or Cancel. Nothing is written before Confirm. */
export class ConfirmApp extends LitElement {
  static override properties = { state: { state: true }, answered: { state: true } };
  declare state: ConfirmState | null;
  declare answered: boolean;

  static override styles = css`
    :host { display: block; max-width: 1100px; padding: 8px 20px 24px; color: var(--vscode-foreground);
      font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
    h1 { font-size: 1.4em; font-weight: 600; margin: 8px 0 4px; }
    h2 { font-size: 1em; margin: 0; display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
    .muted { color: var(--vscode-descriptionForeground); margin: 4px 0; }
    section { border: 1px solid var(--vscode-widget-border, var(--vscode-panel-border, transparent)); border-radius: 4px; margin: 14px 0; }
    header { display: flex; justify-content: space-between; align-items: center; gap: 8px; padding: 6px 10px;
      background: var(--vscode-sideBarSectionHeader-background, transparent); flex-wrap: wrap; }
    code { font-family: var(--vscode-editor-font-family); }
    .counts { color: var(--vscode-descriptionForeground); font-weight: normal; font-variant-numeric: tabular-nums; }
    .secret { color: var(--vscode-editorWarning-foreground); font-weight: normal; }
    .actions { display: flex; gap: 8px; position: sticky; bottom: 0; padding: 10px 0;
      background: var(--vscode-editor-background); border-top: 1px solid var(--vscode-widget-border, transparent); }
  `;

  constructor() {
    super();
    this.state = null;
    this.answered = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    onNotification(ConfirmStateNotification, (s) => { this.state = s; });
    send(ReadyCommand);
    void requestFromHost(GetConfirmStateRequest).then((s) => { this.state = s; });
    // Escape cancels, as in VS Code's own dialogs.
    window.addEventListener('keydown', (e) => { if (e.key === 'Escape') this.answer(false); });
  }

  override render() {
    const s = this.state;
    if (!s) return html`<p class="muted">${t('Loading…')}</p>`;
    return html`
      <h1>${s.title}</h1>
      <p class="muted">${t('Why: {0}', s.reason)}</p>
      <p class="muted" id="backup-note">${backupNote(s)}</p>
      <div role="list" aria-label=${t('Files to change')}>${s.files.map((f, i) => this.file(f, i))}</div>
      <div class="actions">
        <vscode-button id="confirm" ?disabled=${this.answered} @click=${() => this.answer(true)}>${t('Confirm')}</vscode-button>
        <vscode-button id="cancel" secondary ?disabled=${this.answered} @click=${() => this.answer(false)}>${t('Cancel')}</vscode-button>
      </div>
    `;
  }

  private file(f: ConfirmFileView, index: number) {
    const change = f.change === 'create' ? t('new file') : f.change === 'delete' ? t('deleted') : t('changed');
    return html`
      <section role="listitem" data-path=${f.path}>
        <header>
          <h2><vscode-badge variant="counter">${change}</vscode-badge><code>${f.label}</code>
            <span class="counts">${t('{0} lines added, {1} removed', f.added, f.removed)}</span>
            ${f.secret ? html`<span class="secret">${t('secrets hidden, written readable by you only')}</span>` : ''}</h2>
          <vscode-button secondary class="open-diff" @click=${() => send(OpenDiffCommand, { index })}>${t('Open in diff editor')}</vscode-button>
        </header>
        <alfred-diff-block .diff=${f.diff} .label=${f.label}></alfred-diff-block>
      </section>`;
  }

  private answer(confirmed: boolean): void {
    if (this.answered) return;
    this.answered = true;
    send(confirmed ? ConfirmCommand : CancelCommand);
  }
}
customElements.define('alfred-confirm', ConfirmApp);
