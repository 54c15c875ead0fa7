import { LitElement, css, html } from 'lit';
import type { McpAuditView, McpServerView } from '../../../src/protocol/mcp';
import { t } from '../../shared/l10n';

const STATUS: Record<McpServerView['status'], string> = { audited: 'audited', 'not-audited': 'not audited', 'not-checked': 'not checked' };

/**
 * Each MCP server the workspace and the user configure, with the latest audit's verdict: whether it
 * was audited, maintained, pinned, the hosts its sources name and the install scripts it runs.
 */
export class McpServers extends LitElement {
  static override properties = { mcp: { attribute: false } };
  declare mcp: McpAuditView | null;

  static override styles = css`
    :host { display: block; }
    .server { margin: 4px 0 10px; }
    .line { display: flex; align-items: baseline; gap: 8px; flex-wrap: wrap; }
    .name { font-weight: 600; }
    .launches { color: var(--vscode-descriptionForeground); font-family: var(--vscode-editor-font-family); word-break: break-all; }
    .tag { padding: 0 6px; border-radius: 8px; border: 1px solid var(--vscode-widget-border, var(--vscode-contrastBorder, transparent));
      color: var(--vscode-badge-foreground); background: var(--vscode-badge-background); font-size: 11px; }
    .tag.warn { color: var(--vscode-editorWarning-foreground); background: transparent; border-color: var(--vscode-editorWarning-foreground); }
    .tag.bad { color: var(--vscode-errorForeground); background: transparent; border-color: var(--vscode-errorForeground); }
    ul { margin: 2px 0 0; padding-left: 18px; }
    li { color: var(--vscode-descriptionForeground); word-break: break-all; }
    li.warn { color: var(--vscode-editorWarning-foreground); }
    p { margin: 4px 0; color: var(--vscode-descriptionForeground); }
    .actions { margin-top: 6px; }
  `;

  constructor() {
    super();
    this.mcp = null;
  }

  override render() {
    const m = this.mcp;
    if (!m) return html``;
    const head = m.running ? t('Auditing…') : m.at ? t('Audited {0} (UTC)', `${m.at.slice(0, 10)} ${m.at.slice(11, 19)}`) : t('No MCP server audit yet in this workspace.');
    return html`
      <p id="mcp-at">${head}</p>
      ${m.at && m.servers.length === 0 ? html`<p>${t('No MCP server is configured.')}</p>` : ''}
      ${m.servers.map((s) => this.server(s))}
      <div class="actions"><vscode-button secondary id="mcp-audit" ?disabled=${m.running} @click=${() => this.dispatchEvent(new CustomEvent('audit'))}>${t('Audit now')}</vscode-button></div>
    `;
  }

  private server(s: McpServerView) {
    const statusClass = s.status === 'audited' ? '' : 'warn';
    const curationClass = s.curation === 'dead' ? 'bad' : s.curation === 'decaying' ? 'warn' : '';
    const facts = [
      s.weeklyDownloads !== undefined ? t('{0} downloads a week', s.weeklyDownloads) : undefined,
      s.lastPublish ? t('last published {0}', s.lastPublish.slice(0, 10)) : undefined,
    ].filter((f) => f !== undefined).join(' · ');
    return html`
      <div class="server" data-server=${s.name} data-status=${s.status} data-curation=${s.curation} data-pinned=${String(s.pinned)}>
        <div class="line">
          <span class="name" title=${s.origin ? `${s.configPath} (${s.origin})` : s.configPath}>${s.name}</span>
          <span class="tag ${statusClass}">${t(STATUS[s.status])}</span>
          <span class="tag ${curationClass}" title=${facts}>${t(s.curation)}</span>
          <span class="tag ${s.pinned ? '' : 'warn'}">${s.pinned ? t('pinned') : t('not pinned')}</span>
        </div>
        <div class="launches">${s.launches}</div>
        <ul>
          ${s.reason ? html`<li class="warn">${s.reason}</li>` : ''}
          ${s.deprecated ? html`<li class="warn">${t('deprecated: {0}', s.deprecated)}</li>` : ''}
          ${s.status === 'audited' && !s.inUseIsAudited ? html`<li class="warn">${t('version in use may differ from the audited {0}', s.auditedVersion ?? '')}</li>` : ''}
          ${facts ? html`<li>${facts}</li>` : ''}
          ${s.status === 'audited' ? html`
            <li class=${s.installScripts.length ? 'warn' : ''} data-field="scripts">${s.installScripts.length ? `${t('install scripts')}: ${s.installScripts.join('; ')}` : t('no install scripts')}</li>
            <li data-field="hosts">${s.hosts.length ? `${t('hosts')}: ${s.hosts.join(', ')}` : t('no hosts referenced')}</li>
            ${s.binaries.length ? html`<li>${t('binaries')}: ${s.binaries.join(', ')}</li>` : ''}
            <li>${t('{0} dependencies', s.dependencyCount)}</li>` : ''}
        </ul>
      </div>`;
  }
}
customElements.define('alfred-mcp-servers', McpServers);
