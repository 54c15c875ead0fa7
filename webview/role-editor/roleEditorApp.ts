import { LitElement, html } from 'lit';
import {
  CancelCommand, EditorStateNotification, GetEditorStateRequest, ReadyCommand, SaveRoleRequest, ValidateRoleRequest,
  type RoleCheckView, type RoleChoice, type RoleEditorState, type RoleForm,
} from '../../src/protocol/roleEditor';
import { onNotification, requestFromHost, send } from '../shared/host';
import { t } from '../shared/l10n';
import { editorStyles } from './editorStyles';
import './patternList';

const LIMITS: Array<[key: string, label: string]> = [
  ['max_context_tokens', 'Context tokens'], ['max_shell_invocations', 'Shell calls'], ['max_cost_usd', 'Cost (USD)'],
  ['warn_at_percent', 'Warn at (%)'], ['block_at_percent', 'Block at (%)'],
];

/** The role form. Every change is checked by the host with the loader's validation; Save goes through the diff. */
export class RoleEditorApp extends LitElement {
  static override properties = { state: { state: true }, form: { state: true }, check: { state: true }, saving: { state: true }, message: { state: true } };
  declare state: RoleEditorState | null;
  declare form: RoleForm | null;
  declare check: RoleCheckView | null;
  declare saving: boolean;
  declare message: string;
  private seq = 0;
  /** Fields the user has typed in: an empty required field is flagged only after that. */
  private readonly touched = new Set<string>();

  static override styles = editorStyles;

  constructor() {
    super();
    this.state = null;
    this.form = null;
    this.check = null;
    this.saving = false;
    this.message = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    const init = (s: RoleEditorState) => {
      if (this.state) return; // the form is UI state: a second snapshot must not wipe what was typed
      this.state = s;
      this.form = s.form;
      this.validate();
    };
    onNotification(EditorStateNotification, init);
    send(ReadyCommand);
    void requestFromHost(GetEditorStateRequest).then(init);
  }

  private change(patch: Partial<RoleForm>): void {
    if (!this.form) return;
    Object.keys(patch).forEach((k) => this.touched.add(k));
    this.form = { ...this.form, ...patch };
    this.message = '';
    this.validate();
  }

  private validate(): void {
    const seq = ++this.seq;
    const form = this.form!;
    void requestFromHost(ValidateRoleRequest, form).then((c) => { if (seq === this.seq) this.check = c; });
  }

  private get parent(): RoleChoice | null {
    return this.state?.roles.find((r) => r.name === this.form?.inherits) ?? this.state?.defaults ?? null;
  }

  private problem(key: string) {
    const p = this.check?.problems.find((x) => x.key === key);
    if (key === 'role.name' && !this.form?.name && !this.touched.has('name')) return '';
    return p ? html`<p class="field-problem ${p.severity}" id="${key.replace(/\W/g, '-')}-problem" role="alert">${p.message}</p>` : '';
  }

  override render() {
    const s = this.state;
    const f = this.form;
    if (!s || !f) return html`<p class="muted">${t('Loading…')}</p>`;
    const parent = this.parent;
    const value = (e: Event) => (e.target as HTMLInputElement).value;
    return html`
      <h1>${s.mode === 'new' ? t('New role') : t('Edit role {0}', f.name)}</h1>
      <div class="grid">
        <div class="form">
          <vscode-label for="name">${t('Name')}</vscode-label>
          <vscode-textfield id="name" .value=${f.name} .label=${t('Name')} ?invalid=${this.has('role.name')} @input=${(e: Event) => this.change({ name: value(e) })}></vscode-textfield>
          <p class="hint">${t('Letters, digits, _ and -; it is also the file name.')}</p>
          ${this.problem('role.name')}

          <vscode-label>${t('Save in')}</vscode-label>
          <vscode-radio-group id="location" @change=${(e: Event) => this.change({ location: value(e) === 'user' ? 'user' : 'project' })}>
            <vscode-radio name="location" value="project" ?checked=${f.location === 'project'}>${t('This project')}</vscode-radio>
            <vscode-radio name="location" value="user" ?checked=${f.location === 'user'}>${t('Your user folder (every workspace)')}</vscode-radio>
          </vscode-radio-group>
          <p class="hint"><code>${s.folders[f.location]}</code></p>

          <vscode-label for="inherits">${t('Inherits from')}</vscode-label>
          <vscode-single-select id="inherits" .label=${t('Inherits from')} @change=${(e: Event) => this.change({ inherits: value(e) })}>
            <vscode-option value="" ?selected=${!f.inherits}>${t('No parent (defaults)')}</vscode-option>
            ${s.roles.map((r) => html`<vscode-option value=${r.name} ?selected=${r.name === f.inherits} description=${r.description}>${r.name} (${t(r.source)})</vscode-option>`)}
          </vscode-single-select>
          ${this.problem('role.inherits')}

          <vscode-label for="description">${t('Description')}</vscode-label>
          <vscode-textfield id="description" .value=${f.description} .label=${t('Description')} placeholder=${parent?.description ?? ''}
            @input=${(e: Event) => this.change({ description: value(e) })}></vscode-textfield>
          ${this.problem('role.description')}

          <vscode-label for="shell">${t('Shell policy')}</vscode-label>
          <vscode-single-select id="shell" .label=${t('Shell policy')} @change=${(e: Event) => this.change({ shellPolicy: value(e) as RoleForm['shellPolicy'] })}>
            <vscode-option value="" ?selected=${!f.shellPolicy}>${t('Inherited ({0})', parent?.shellPolicy ?? 'track')}</vscode-option>
            <vscode-option value="track" ?selected=${f.shellPolicy === 'track'}>${t('track: allowed, counted and logged')}</vscode-option>
            <vscode-option value="compress" ?selected=${f.shellPolicy === 'compress'}>${t('compress: allowed, long output shortened')}</vscode-option>
            <vscode-option value="deny" ?selected=${f.shellPolicy === 'deny'}>${t('deny: every shell tool refused')}</vscode-option>
          </vscode-single-select>
          ${this.problem('role.shell_policy')}

          ${this.list('allowed', t('Allowed tools'), f.allowed, parent?.allowed ? parent.allowed.join(', ') || t('none') : t('every tool'), t('An empty list allows no tool at all (only ctx_session stays callable).'))}
          ${this.list('denied', t('Denied tools'), f.denied, parent?.denied.join(', ') || t('none'), t('Denied always wins over allowed.'))}

          <h2>${t('Limits')}</h2>
          <div class="limits">${LIMITS.map(([key, label]) => html`
            <div>
              <vscode-label for=${key}>${t(label)}</vscode-label>
              <vscode-textfield id=${key} .value=${f.limits[key] ?? ''} .label=${t(label)} ?invalid=${this.has(`limits.${key}`)}
                placeholder=${parent ? t('inherited: {0}', parent.limits[key] ?? '') : ''} @input=${(e: Event) => this.change({ limits: { ...f.limits, [key]: value(e) } })}></vscode-textfield>
              ${this.problem(`limits.${key}`)}
            </div>`)}
          </div>
        </div>
        ${this.preview()}
      </div>
    `;
  }

  private list(field: 'allowed' | 'denied', label: string, patterns: string[] | null, inherited: string, hint: string) {
    return html`
      <fieldset>
        <legend>${label}</legend>
        <vscode-checkbox id="${field}-set" ?checked=${patterns !== null} @change=${(e: Event) => this.change({ [field]: (e.target as HTMLInputElement).checked ? (patterns ?? []) : null })}>${t('Set a list for this role')}</vscode-checkbox>
        ${patterns === null
          ? html`<p class="hint">${t('Inherited: {0}', inherited)}</p>`
          : html`<alfred-pattern-list .patterns=${patterns} .categories=${this.state!.categories} .problems=${this.check?.problems ?? []} field=${field}
              @patterns-change=${(e: CustomEvent<string[]>) => this.change({ [field]: e.detail })}></alfred-pattern-list>
            <p class="hint">${hint}</p>`}
        ${this.problem(`tools.${field}`)}
      </fieldset>`;
  }

  private preview() {
    const c = this.check;
    const errors = c?.problems ?? [];
    return html`
      <aside>
        <h2>${t('File')}</h2>
        <p><code id="target-path">${c?.path ?? ''}</code></p>
        ${c?.replaces ? html`<p class="warning">${t('Replaces {0} (it will be deleted)', c.replaces)}</p>` : ''}
        <h2>${t('Problems')}</h2>
        <div aria-live="polite" id="problems">${errors.length === 0
          ? html`<p class="ok">${t('No problems: the loader will accept this role.')}</p>`
          : html`<ul>${errors.map((p) => html`<li class=${p.severity}>${p.key ? html`<code>${p.key}</code>: ` : ''}${p.message}</li>`)}</ul>`}</div>
        <h2>${t('TOML preview')}</h2>
        <pre id="toml" tabindex="0" aria-label=${t('TOML preview')}>${c?.toml ?? ''}</pre>
        ${this.message ? html`<p class="error" role="alert" id="save-message">${this.message}</p>` : ''}
        <div class="actions">
          <vscode-button id="save" ?disabled=${!c?.ok || this.saving} @click=${() => this.save()}>${this.saving ? t('Saving…') : t('Save…')}</vscode-button>
          <vscode-button id="cancel" secondary @click=${() => send(CancelCommand)}>${t('Cancel')}</vscode-button>
        </div>
      </aside>`;
  }

  private has(key: string): boolean {
    if (key === 'role.name' && !this.form?.name && !this.touched.has('name')) return false;
    return !!this.check?.problems.some((p) => p.key === key && p.severity === 'error');
  }

  private async save(): Promise<void> {
    if (!this.form || this.saving) return;
    this.saving = true;
    try {
      const result = await requestFromHost(SaveRoleRequest, this.form);
      if (!result.saved) this.message = result.message ?? '';
    } catch (err) {
      this.message = (err as Error).message;
    } finally {
      this.saving = false;
    }
  }
}
customElements.define('alfred-role-editor', RoleEditorApp);
