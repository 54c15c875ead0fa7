/** The doctor's line on MCP servers: what the latest audit (`mcp-audit/latest.json`) found. */
import { latestPath, readLatest } from '../rules/mcp/cache';
import type { McpAudit } from '../rules/mcp/types';
import type { DoctorCheck } from './check';

const list = (audits: readonly McpAudit[]): string => audits.map((a) => a.server.name).join(', ');

export function mcpCheck(stateDir: string): DoctorCheck {
  const latest = readLatest(stateDir);
  const name = 'MCP servers';
  if (!latest) return { name, state: 'warn', detail: `not audited yet in this workspace (${latestPath(stateDir)} is missing): run Alfred: Audit MCP Servers or alfred audit` };
  const { audits } = latest;
  const when = `audit of ${latest.at.slice(0, 16).replace('T', ' ')} UTC`;
  if (audits.length === 0) return { name, state: 'ok', detail: `none configured (${when})` };
  const notAudited = audits.filter((a) => a.status === 'not-audited');
  const notChecked = audits.filter((a) => a.status === 'not-checked');
  const dead = audits.filter((a) => a.curation.verdict === 'dead');
  const deprecated = audits.filter((a) => a.curation.deprecated);
  const moving = audits.filter((a) => a.status === 'audited' && !a.inUseIsAudited);
  const scripts = audits.filter((a) => Object.keys(a.installScripts).length > 0);
  const parts = [`${audits.length} configured, ${audits.length - notAudited.length - notChecked.length} audited`];
  if (notAudited.length) parts.push(`not audited: ${list(notAudited)}`);
  if (notChecked.length) parts.push(`not checked: ${list(notChecked)}`);
  if (dead.length) parts.push(`dead: ${list(dead)}`);
  if (deprecated.length) parts.push(`deprecated: ${list(deprecated)}`);
  if (moving.length) parts.push(`not pinned to the audited version: ${list(moving)}`);
  if (scripts.length) parts.push(`install scripts: ${scripts.map((a) => `${a.server.name} (${Object.keys(a.installScripts).join(', ')})`).join(', ')}`);
  const worry = notAudited.length + notChecked.length + dead.length + deprecated.length + moving.length + scripts.length > 0;
  return { name, state: worry ? 'warn' : 'ok', detail: `${parts.join('; ')} (${when})` };
}
