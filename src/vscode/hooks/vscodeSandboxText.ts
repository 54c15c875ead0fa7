import * as vscode from 'vscode';
import type { VscodeSandboxReport } from '../../core/sandbox/vscodeSettingsFiles';

/** Which sandbox holds each agent's terminal commands (core/sandbox/vscodeSandbox.ts), for the dashboard and `/doctor`. */
export function vscodeSandboxText(report: VscodeSandboxReport): string {
  if (report.holds) {
    return vscode.l10n.t('Copilot\'s terminal commands in VS Code run in VS Code\'s own sandbox, which holds Alfred\'s protected paths and the role\'s network names (no sandbox of Alfred\'s inside it). Claude Code, Codex, the Copilot CLI, Gemini CLI and ctx_shell run in Alfred\'s.');
  }
  const why = [...report.missing, ...(report.file ? [report.file] : [])].join('; ');
  return report.off
    ? vscode.l10n.t('Every agent\'s terminal commands run in Alfred\'s sandbox (VS Code\'s own is not in use: {0}).', why)
    : vscode.l10n.t('VS Code\'s own sandbox is on but short of Alfred\'s rules ({0}): Copilot\'s terminal commands still run in Alfred\'s sandbox, inside VS Code\'s, as every other agent\'s do.', why);
}

/** Whether to offer the command that fills VS Code's sandbox in: it is on somewhere, short of Alfred's rules. */
export function vscodeSandboxShort(report: VscodeSandboxReport): boolean {
  return !report.holds && !report.off;
}
