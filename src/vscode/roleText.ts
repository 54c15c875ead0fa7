/**
 * How a role reads in the quick picks and in chat: where it comes from in the user's language, and
 * one line of its rules, with the display language's separators and a limit of 0 said as "not
 * allowed", as the status bar's tooltip says them (not `denied []` or `0 shell`).
 */
import * as vscode from 'vscode';
import type { Role, RoleSource } from '../core/rules/roles/types';
import { formatCount, formatUsd } from '../protocol/dashboardFormat';

/** `builtin`, `project`, `user`…, translated. */
export function roleSource(source: RoleSource): string {
  switch (source) {
    case 'builtin': return vscode.l10n.t('builtin');
    case 'project': return vscode.l10n.t('project');
    case 'project-lean-ctx': return vscode.l10n.t('project-lean-ctx');
    case 'user': return vscode.l10n.t('user');
    case 'user-lean-ctx': return vscode.l10n.t('user-lean-ctx');
  }
}

/** `builtin`, or `project · inherits reviewer`. */
export function roleOrigin(role: Pick<Role, 'source' | 'inherits'>): string {
  return role.inherits ? `${roleSource(role.source)} · ${vscode.l10n.t('inherits {0}', role.inherits)}` : roleSource(role.source);
}

/** Its description, shell policy and tools (Show Roles). */
export function roleToolsLine(role: Role): string {
  const list = (tools: readonly string[]) => (tools.length ? tools.join(', ') : vscode.l10n.t('none'));
  return line(role.description, vscode.l10n.t('shell {0}', role.shellPolicy),
    vscode.l10n.t('allowed: {0}', role.tools.allowed ? list(role.tools.allowed) : vscode.l10n.t('every tool')),
    vscode.l10n.t('denied: {0}', list(role.tools.denied)));
}

/** Its description, shell policy and limits (Switch Role). */
export function roleLimitsLine(role: Role): string {
  const locale = vscode.env.language;
  const { maxContextTokens: tokens, maxShellInvocations: shell, maxCostUsd: cost } = role.limits;
  return line(role.description, vscode.l10n.t('shell {0}', role.shellPolicy),
    tokens === 0 ? vscode.l10n.t('tokens not allowed') : vscode.l10n.t('{0} tokens', formatCount(tokens, locale)),
    shell === 0 ? vscode.l10n.t('shell calls not allowed') : vscode.l10n.t('{0} shell calls', formatCount(shell, locale)),
    cost === 0 ? vscode.l10n.t('spending not allowed') : vscode.l10n.t('up to {0}', formatUsd(cost, locale)));
}

const line = (...parts: string[]): string => parts.filter((p) => p.trim()).join(' · ');
