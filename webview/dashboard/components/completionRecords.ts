import { LitElement, css, html } from 'lit';
import type { CheckView, CompletionView } from '../../../src/protocol/dashboard';
import { t } from '../../shared/l10n';

const ICON: Record<string, string> = { passed: '✔', failed: '✖', 'timed out': '⏱', cancelled: '■', error: '✖', skipped: '–' };

/**
 * Completion records, newest first: the verdict, the snapshot it was reached on, and each check's
 * result; a check expands to its output tail. The records themselves live in the state folder.
 */
export class CompletionRecords extends LitElement {
  static override properties = { completions: { attribute: false } };
  declare completions: CompletionView[];

  static override styles = css`
    :host { display: block; }
    ol { list-style: none; margin: 0; padding: 0; }
    details { border-bottom: 1px solid var(--vscode-widget-border, transparent); padding: 3px 0; }
    summary { cursor: pointer; display: flex; gap: 6px; align-items: baseline; flex-wrap: wrap; }
    summary:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
    .accepted { color: var(--vscode-testing-iconPassed, var(--vscode-charts-green)); font-weight: 600; }
    .refused { color: var(--vscode-errorForeground); font-weight: 600; }
    .meta, .time { color: var(--vscode-descriptionForeground); font-variant-numeric: tabular-nums; }
    p { margin: 4px 0; }
    .empty { color: var(--vscode-descriptionForeground); }
    ul { list-style: none; margin: 4px 0 0; padding-left: 10px; }
    .check.failed summary, .check.error summary, .check.timed-out summary { color: var(--vscode-errorForeground); }
    code, pre { font-family: var(--vscode-editor-font-family); }
    pre { font-size: 0.9em; white-space: pre-wrap; word-break: break-word; background: var(--vscode-textCodeBlock-background);
      padding: 6px; margin: 4px 0; max-height: 240px; overflow: auto; }
  `;

  constructor() {
    super();
    this.completions = [];
  }

  override render() {
    if (this.completions.length === 0) {
      return html`<p class="empty">${t('No completion records yet. Alfred: Verify Completion runs the checks of .alfred/checks.toml and records the verdict here.')}</p>`;
    }
    return html`<ol aria-label=${t('Completion records')}>${this.completions.map((c) => this.record(c))}</ol>`;
  }

  private record(c: CompletionView) {
    const snapshot = c.snapshot.kind === 'commit' ? t('commit {0}', c.snapshot.short) : t('snapshot {0}', c.snapshot.short);
    return html`<li><details>
      <summary>
        <span class=${c.accepted ? 'accepted' : 'refused'}>${c.accepted ? t('Accepted') : t('Not accepted')}</span>
        <span class="time">${c.ts.slice(0, 10)} ${c.ts.slice(11, 19)}</span>
        <code class="meta" title=${c.snapshot.id}>${snapshot}</code>
        ${c.snapshot.stable ? '' : html`<span class="refused">${t('changed while checking')}</span>`}
      </summary>
      <p class="reason">${c.reason}</p>
      <p class="meta">${t('role {0} · from {1}', c.role, c.trigger)}</p>
      <ul aria-label=${t('Checks')}>${c.checks.map((k) => this.check(k))}</ul>
    </details></li>`;
  }

  private check(k: CheckView) {
    const exit = k.exitCode === null ? '' : ` · ${t('exit {0}', k.exitCode)}`;
    return html`<li class="check ${k.status.replace(' ', '-')}"><details>
      <summary>${ICON[k.status] ?? '?'} ${k.name}${k.required ? '' : ` (${t('optional')})`}: ${t(k.status)}${exit} · ${(k.durationMs / 1000).toFixed(1)} s</summary>
      <code class="meta">${k.run}</code>
      <pre aria-label=${t('Output of {0}', k.name)}>${k.outputTail || t('(no output)')}</pre>
    </details></li>`;
  }
}
customElements.define('alfred-completion-records', CompletionRecords);
