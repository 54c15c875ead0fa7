import { LitElement, css, html } from 'lit';
import type { ProblemView, RoleView } from '../../../src/protocol/dashboard';
import { t } from '../../shared/l10n';

/** Picks the active role; the host does the switch, exactly as the command palette does. */
export class RoleSwitcher extends LitElement {
  static override properties = { roles: { attribute: false }, active: {}, problems: { attribute: false } };
  declare roles: RoleView[];
  declare active: string;
  declare problems: ProblemView[];

  static override styles = css`
    :host { display: block; }
    vscode-single-select { width: 100%; }
    .desc { color: var(--vscode-descriptionForeground); margin: 4px 0 0; }
    ul { margin: 6px 0 0; padding-left: 18px; }
    li.error { color: var(--vscode-errorForeground); }
    li.warning { color: var(--vscode-editorWarning-foreground); }
    code { font-family: var(--vscode-editor-font-family); }
  `;

  constructor() {
    super();
    this.roles = [];
    this.active = '';
    this.problems = [];
  }

  override render() {
    const current = this.roles.find((r) => r.name === this.active);
    return html`
      <vscode-single-select aria-label=${t('Active role')} .value=${this.active} @change=${this.onChange}>
        ${this.roles.map((r) => html`<vscode-option value=${r.name} ?selected=${r.name === this.active}
          description=${r.description}>${r.name} (${t(r.source)})</vscode-option>`)}
      </vscode-single-select>
      ${current ? html`<p class="desc">${current.description} · ${t('shell')}: ${current.shellPolicy}</p>` : ''}
      ${this.problems.length ? html`<ul aria-label=${t('Role problems')}>${this.problems.map((p) =>
        html`<li class=${p.severity}><code>${p.path}</code>${p.key ? html` <code>${p.key}</code>` : ''}: ${p.message}</li>`)}</ul>` : ''}
    `;
  }

  private onChange(e: Event) {
    const value = (e.target as HTMLSelectElement).value;
    if (value && value !== this.active) {
      this.dispatchEvent(new CustomEvent('switch-role', { detail: value, bubbles: true, composed: true }));
    }
  }
}
customElements.define('alfred-role-switcher', RoleSwitcher);
