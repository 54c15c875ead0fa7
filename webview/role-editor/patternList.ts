import { LitElement, css, html } from 'lit';
import type { RoleProblemView } from '../../src/protocol/roleEditor';
import { t } from '../shared/l10n';

/** Editable list of tool-name patterns: edit in place, remove, add by typing or by category. */
export class PatternList extends LitElement {
  static override properties = { patterns: { attribute: false }, categories: { attribute: false }, problems: { attribute: false }, field: {}, draft: { state: true } };
  declare patterns: string[];
  declare categories: string[];
  /** Problems of this list, keyed `tools.allowed[2]`. */
  declare problems: RoleProblemView[];
  /** `allowed` or `denied`. */
  declare field: string;
  declare draft: string;

  static override styles = css`
    :host { display: block; }
    ul { list-style: none; margin: 4px 0; padding: 0; }
    li { display: flex; gap: 6px; align-items: center; margin: 3px 0; }
    vscode-textfield { flex: 1; }
    .add { display: flex; gap: 6px; margin-top: 4px; }
    .chips { display: flex; gap: 4px; flex-wrap: wrap; margin-top: 6px; }
    .error { color: var(--vscode-errorForeground); margin: 0 0 4px; }
  `;

  constructor() {
    super();
    this.patterns = [];
    this.categories = [];
    this.problems = [];
    this.field = '';
    this.draft = '';
  }

  override render() {
    return html`
      <ul>${this.patterns.map((p, i) => {
        const problem = this.problems.find((x) => x.key === `tools.${this.field}[${i}]`);
        return html`<li>
          <vscode-textfield .value=${p} .label=${p} ?invalid=${!!problem} @input=${(e: Event) => this.edit(i, (e.target as HTMLInputElement).value)}></vscode-textfield>
          <vscode-button secondary aria-label=${t('Remove {0}', p)} @click=${() => this.emit(this.patterns.filter((_, j) => j !== i))}>×</vscode-button>
        </li>${problem ? html`<p class="error" role="alert">${problem.message}</p>` : ''}`;
      })}</ul>
      <div class="add">
        <vscode-textfield class="new-pattern" .value=${this.draft} .label=${t('Add pattern')} placeholder=${t('Tool name or pattern, e.g. ctx_* or @read')}
          @input=${(e: Event) => { this.draft = (e.target as HTMLInputElement).value; }}
          @keydown=${(e: KeyboardEvent) => { if (e.key === 'Enter') this.add(this.draft); }}></vscode-textfield>
        <vscode-button secondary @click=${() => this.add(this.draft)}>${t('Add')}</vscode-button>
      </div>
      <div class="chips">${this.categories.filter((c) => !this.patterns.includes(c)).map((c) =>
        html`<vscode-button secondary @click=${() => this.add(c)}>+ ${c}</vscode-button>`)}</div>
    `;
  }

  private edit(index: number, value: string): void {
    this.emit(this.patterns.map((p, j) => (j === index ? value : p)));
  }

  private add(value: string): void {
    const v = value.trim();
    if (!v) return;
    this.draft = '';
    this.emit([...this.patterns, v]);
  }

  private emit(patterns: string[]): void {
    this.dispatchEvent(new CustomEvent<string[]>('patterns-change', { detail: patterns, bubbles: true, composed: true }));
  }
}
customElements.define('alfred-pattern-list', PatternList);
