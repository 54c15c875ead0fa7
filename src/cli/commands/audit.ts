import * as path from 'node:path';
import { auditServers } from '../../core/rules/mcp/audit';
import { commandLineSources } from '../../core/rules/mcp/commandLineSources';
import { readMcpInventory } from '../../core/rules/mcp/inventory';
import { userAuditSettings } from '../../core/rules/mcp/settings';
import type { McpAudit } from '../../core/rules/mcp/types';
import { openHarness } from '../context';
import { json } from '../io';
import type { CliCommand } from './command';

function packageLine(a: McpAudit): string {
  const ref = a.server.package;
  if (!ref) return a.server.url ? `remote: ${a.server.url}` : `command: ${[a.server.command, ...a.server.args].join(' ')}`;
  const asked = `${ref.name}@${ref.spec}`;
  if (!a.auditedVersion) return `${asked} (${ref.pinned ? 'pinned' : 'not pinned'})`;
  if (a.inUseIsAudited) return `${a.auditedVersion} (pinned)`;
  return `${asked} (${ref.pinned ? 'pinned' : 'not pinned'}; audited ${a.auditedVersion}${ref.pinned ? '' : ', which may move'})`;
}

function verdictLine(a: McpAudit): string {
  const c = a.curation;
  const facts = [
    c.weeklyDownloads !== undefined ? `${c.weeklyDownloads} weekly downloads` : 'weekly downloads unknown',
    c.lastPublish ? `last publish ${c.lastPublish.slice(0, 10)}` : 'last publish unknown',
  ];
  return `${c.verdict} (${facts.join(', ')})${c.deprecated ? ` · deprecated: ${c.deprecated}` : ''}`;
}

/** One server as lines a person reads: what it is, whether it was audited, and what the audit found. */
function describe(a: McpAudit, workspace: string): string[] {
  const where = a.server.source === 'workspace' ? path.relative(workspace, a.server.configPath) || a.server.configPath : a.server.configPath;
  const lines = [`${a.server.name} (${a.server.source}: ${where}${a.server.origin ? `, ${a.server.origin}` : ''})`, `  package: ${packageLine(a)}`];
  if (a.status === 'not-checked') return [...lines, `  not checked: ${a.reason ?? ''}`];
  if (a.status === 'not-audited') lines.push(`  not audited: ${a.reason ?? ''}`);
  else if (a.reason) lines.push(`  note: ${a.reason}`);
  lines.push(`  verdict: ${verdictLine(a)}`);
  if (a.status === 'audited') {
    const hosts = a.hosts.map((h) => `${h.host} (${h.files.join(', ')})`);
    // npm runs `prepare` only when it builds from git or a folder: said, so a reader does not take it for an install hook.
    const scripts = Object.entries(a.installScripts).map(([k, v]) => `${k}: ${v}${k === 'prepare' ? ' (runs only for git or local installs)' : ''}`);
    lines.push(`  hosts: ${hosts.length ? hosts.join('; ') : 'none'}`);
    lines.push(`  install scripts: ${scripts.length ? scripts.join('; ') : 'none'}`);
    lines.push(`  binaries: ${a.binaries.length ? a.binaries.join('; ') : 'none'} · dependencies: ${a.dependencyCount}`);
  }
  return lines;
}

/** `alfred audit [--json]`: every MCP server of the workspace and the user, its package audited (advisory: exit code 0). */
export const auditCommand: CliCommand = {
  name: 'audit',
  usage: 'alfred audit [--json]',
  async run(args, io) {
    const h = await openHarness(args.workspace);
    const folder = h.workspaceFolder;
    const sources = commandLineSources(folder);
    const inventory = readMcpInventory(sources.inventory);
    // The user's alfred.mcpAudit.* settings, as the editor's audit reads them: both write the latest.json the gate reads.
    const settings = userAuditSettings(sources.userSettings);
    const audits = await auditServers(inventory.servers, { stateDir: h.stateDir, npmrc: { workspaceFolder: folder }, ...settings });
    if (args.json) {
      io.out(json({ audits, problems: inventory.problems }));
      return 0;
    }
    if (audits.length === 0) io.out('No MCP server is configured (.vscode/mcp.json, a workspace file\'s settings.mcp, the user\'s and each profile\'s mcp.json, mcp.servers in settings, applications chat.mcp.discovery.enabled imports).');
    for (const a of audits) io.out(describe(a, folder).join('\n'));
    for (const p of inventory.problems) io.out(`problem: ${p.path}: ${p.message}`);
    const count = (s: McpAudit['status']) => audits.filter((a) => a.status === s).length;
    if (audits.length > 0) io.out(`${audits.length} server${audits.length === 1 ? '' : 's'}: ${count('audited')} audited, ${count('not-audited')} not audited, ${count('not-checked')} not checked`);
    return 0;
  },
};
