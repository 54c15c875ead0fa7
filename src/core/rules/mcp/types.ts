// The shared contract of the MCP audit: the inventory, the audit and the dashboard, /doctor and the
// role gate all read these shapes, so they change only by agreement.

/**
 * workspace: .vscode/mcp.json, a workspace file's settings.mcp; user: the user's mcp.json (each profile's);
 * setting: mcp.servers in settings; discovered: another application's configuration that VS Code
 * imports (chat.mcp.discovery.enabled).
 */
export type McpSource = 'workspace' | 'user' | 'setting' | 'discovered';

export interface McpPackageRef {
  ecosystem: 'npm' | 'pypi' | 'docker';
  name: string;
  /** What the launcher asks for after the name: `1.2.3`, `^1.2`, `latest` (also when none is given), a Docker tag or digest. */
  spec: string;
  /** exact version when pinned */
  version?: string;
  pinned: boolean;
}

export interface McpServerEntry {
  name: string;
  source: McpSource;
  configPath: string;
  /** The profile or application the file belongs to, when its path alone does not say it (`profile "Work"`, `Claude Desktop`). */
  origin?: string;
  command: string;
  args: string[];
  url?: string;
  package?: McpPackageRef;
}

export type Curation = 'alive' | 'decaying' | 'dead' | 'unknown';

export interface McpHost {
  host: string;
  files: string[];
}

export interface McpAudit {
  server: McpServerEntry;
  /** not-audited: registry did not answer (reason says why); not-checked: not npm (reason says what was not checked) */
  status: 'audited' | 'not-audited' | 'not-checked';
  reason?: string;
  /** the name@version actually fetched */
  auditedVersion?: string;
  /** false when the spec is unpinned/latest and may move, or differs */
  inUseIsAudited: boolean;
  /** preinstall/install/postinstall/prepare → command */
  installScripts: Record<string, string>;
  /** deduplicated, sorted by host */
  hosts: McpHost[];
  /** `bin` entries and executable/native files shipped */
  binaries: string[];
  dependencyCount: number;
  curation: { verdict: Curation; weeklyDownloads?: number; lastPublish?: string; deprecated?: string };
  auditedAt: string;
}

export interface McpInventory {
  servers: McpServerEntry[];
  problems: { path: string; message: string }[];
}

/** The latest results of a workspace, `<state folder>/mcp-audit/latest.json`. */
export interface McpAuditLatest {
  at: string;
  audits: McpAudit[];
}
