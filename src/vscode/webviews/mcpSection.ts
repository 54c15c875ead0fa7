/** The dashboard's "MCP servers" section: the latest audit (`mcp-audit/latest.json`) as the page shows it. */
import type { Harness } from '../../core/harness/harness';
import { readLatestAudit } from '../../core/rules/policy/mcpAuditFile';
import type { McpAudit } from '../../core/rules/mcp/types';
import { packageLabel } from '../../core/rules/policy/mcpTrust';
import type { McpAuditView, McpServerView } from '../../protocol/mcp';
import { isAuditRunning } from '../mcp/auditState';

function launches(a: McpAudit): string {
  const s = a.server;
  return s.package ? packageLabel(s.package) : s.url ?? [s.command, ...s.args].join(' ');
}

export function serverView(a: McpAudit): McpServerView {
  const { curation } = a;
  return {
    name: a.server.name, source: a.server.source, configPath: a.server.configPath, ...(a.server.origin ? { origin: a.server.origin } : {}), launches: launches(a),
    pinned: a.server.package?.pinned ?? false, status: a.status,
    ...(a.reason ? { reason: a.reason } : {}), ...(a.auditedVersion ? { auditedVersion: a.auditedVersion } : {}),
    inUseIsAudited: a.inUseIsAudited, curation: curation.verdict,
    ...(curation.weeklyDownloads !== undefined ? { weeklyDownloads: curation.weeklyDownloads } : {}),
    ...(curation.lastPublish ? { lastPublish: curation.lastPublish } : {}),
    ...(curation.deprecated ? { deprecated: curation.deprecated } : {}),
    hosts: a.hosts.map((h) => h.host),
    installScripts: Object.entries(a.installScripts).map(([k, v]) => `${k}: ${v}`),
    binaries: [...a.binaries], dependencyCount: a.dependencyCount,
  };
}

export function mcpView(harness: Harness | undefined): McpAuditView | null {
  if (!harness) return null;
  const latest = readLatestAudit(harness.stateDir);
  return { at: latest?.at || null, running: isAuditRunning(harness.stateDir), servers: (latest?.audits ?? []).map(serverView) };
}
