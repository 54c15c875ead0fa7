import { LitElement, css, html } from 'lit';
import { t } from '../shared/l10n';

/** One unified diff, each line coloured like VS Code's diff editor; the text is already redacted. */
export class DiffBlock extends LitElement {
  static override properties = { diff: {}, label: {} };
  declare diff: string;
  declare label: string;

  static override styles = css`
    :host { display: block; }
    pre { margin: 0; padding: 6px 0; overflow-x: auto; font-family: var(--vscode-editor-font-family);
      font-size: var(--vscode-editor-font-size, 13px); line-height: 1.45;
      background: var(--vscode-textCodeBlock-background, var(--vscode-editor-background)); }
    pre:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
    .line { display: block; padding: 0 10px; white-space: pre; }
    .add { background: var(--vscode-diffEditor-insertedLineBackground, var(--vscode-diffEditor-insertedTextBackground)); }
    .del { background: var(--vscode-diffEditor-removedLineBackground, var(--vscode-diffEditor-removedTextBackground)); }
    .hunk { color: var(--vscode-textPreformat-foreground, var(--vscode-descriptionForeground)); }
    .head { color: var(--vscode-descriptionForeground); }
    @media (forced-colors: active) {
      .add { border-left: 3px solid Highlight; } .del { border-left: 3px dashed CanvasText; }
    }
  `;

  constructor() {
    super();
    this.diff = '';
    this.label = '';
  }

  override render() {
    const lines = this.diff.replace(/\n$/, '').split('\n');
    // Focusable, so a keyboard user can scroll a wide diff.
    return html`<pre tabindex="0" aria-label=${t('Diff of {0}', this.label)}>${lines.map((l) => html`<span class="line ${kind(l)}">${l}</span>`)}</pre>`;
  }
}

function kind(line: string): string {
  if (line.startsWith('+++') || line.startsWith('---')) return 'head';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return '';
}
customElements.define('alfred-diff-block', DiffBlock);
