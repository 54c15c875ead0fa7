import * as vscode from 'vscode';
import type { McpAudit } from '../../core/rules/mcp/types';
import { normalizeServer } from '../../core/rules/vocabulary/mcpServer';
import { packageLabel, trustFromAudits } from '../../core/rules/policy/mcpTrust';

const SEEN_KEY = 'alfred.mcp.unauditedSeen';

/** A server is the same server while its name and what it launches stay the same. */
function keyOf(a: McpAudit): string {
  return `${a.server.name}\u0000${a.server.package ? packageLabel(a.server.package) : a.server.url ?? [a.server.command, ...a.server.args].join(' ')}`;
}

/**
 * Tells the user, once per server, that an MCP server the gate counts as unaudited (policy/mcpTrust.ts)
 * appeared: the same judgement a role's `[mcp] unaudited` rule applies. Returns the names told now and
 * the words shown (for the audit command's answer, which tests read: the workbench's toasts are not theirs to read).
 */
export async function notifyUnaudited(audits: readonly McpAudit[], memory: vscode.Memento): Promise<{ names: string[]; message?: string }> {
  const trust = trustFromAudits(audits);
  const seen = new Set(memory.get<string[]>(SEEN_KEY, []));
  const fresh = audits.filter((a) => trust.servers.get(normalizeServer(a.server.name))?.unaudited && !seen.has(keyOf(a)));
  if (fresh.length === 0) return { names: [] };
  for (const a of fresh) seen.add(keyOf(a));
  await memory.update(SEEN_KEY, [...seen]);
  const names = [...new Set(fresh.map((a) => a.server.name))];
  const first = fresh[0]!;
  const why = trust.servers.get(normalizeServer(first.server.name))?.unaudited ?? '';
  const show = vscode.l10n.t('Show MCP servers');
  const message = names.length === 1
    ? vscode.l10n.t('MCP server {0} is not audited: {1}.', names[0]!, why)
    : vscode.l10n.t('{0} MCP servers are not audited: {1}.', names.length, names.join(', '));
  void vscode.window.showWarningMessage(message, show).then((choice) => {
    if (choice === show) void vscode.commands.executeCommand('alfred.openDashboard');
  });
  return { names, message };
}
