import { LitElement, css, html } from 'lit';
import type { PackView } from '../../../src/protocol/dashboard';
import { t } from '../../shared/l10n';

/** The pack the radar chose for the last `@alfred` prompt, and why. */
export class ActivePack extends LitElement {
  static override properties = { pack: { attribute: false } };
  declare pack: PackView | null;

  static override styles = css`
    :host { display: block; }
    p { margin: 2px 0; }
    .muted { color: var(--vscode-descriptionForeground); }
    .name { font-weight: 600; }
  `;

  constructor() {
    super();
    this.pack = null;
  }

  override render() {
    const p = this.pack;
    if (!p) return html`<p class="muted">${t('No pack chosen yet: @alfred picks one per prompt from its trigger words.')}</p>`;
    return html`<p class="name">${p.name}</p><p class="muted">${p.reason}</p>`;
  }
}
customElements.define('alfred-active-pack', ActivePack);
