/** The dashboard's "MCP servers" section: each configured server and what the latest audit says of it. */
import { command } from './ipc';

export interface McpServerView {
  name: string;
  /** workspace | user | setting | discovered */
  source: string;
  configPath: string;
  /** The profile or application the file belongs to (`profile "Work"`, `Claude Desktop`). */
  origin?: string;
  /** The package spec it launches (`pkg@1.2.3`, `pkg`, an image), or the remote URL, or the command. */
  launches: string;
  /** Pinned to an exact version. */
  pinned: boolean;
  status: 'audited' | 'not-audited' | 'not-checked';
  /** Why it was not audited or not checked. */
  reason?: string;
  /** The name@version fetched. */
  auditedVersion?: string;
  /** The version in use is the audited one (false when unpinned: it may move). */
  inUseIsAudited: boolean;
  curation: 'alive' | 'decaying' | 'dead' | 'unknown';
  weeklyDownloads?: number;
  lastPublish?: string;
  deprecated?: string;
  /** Host names its sources reference, sorted. */
  hosts: string[];
  /** `postinstall: node setup.js`, … */
  installScripts: string[];
  binaries: string[];
  dependencyCount: number;
}

export interface McpAuditView {
  /** When the latest audit ran (ISO); null: never in this workspace. */
  at: string | null;
  /** An audit is running now. */
  running: boolean;
  servers: McpServerView[];
}

// webview → host
/** Runs Alfred: Audit MCP Servers. */
export const AuditMcpCommand = command<void>('mcp/audit');

/** Every English string the section shows (translated by the host, like DASHBOARD_STRINGS). */
export const MCP_STRINGS: readonly string[] = [
  'MCP servers', 'Audit now', 'Auditing…', 'No MCP server audit yet in this workspace.', 'No MCP server is configured.',
  'Audited {0} (UTC)', 'audited', 'not audited', 'not checked', 'alive', 'decaying', 'dead', 'unknown',
  'pinned', 'not pinned', 'version in use may differ from the audited {0}', 'install scripts', 'no install scripts',
  'hosts', 'no hosts referenced', 'binaries', '{0} dependencies', 'deprecated: {0}', '{0} downloads a week', 'last published {0}',
];
