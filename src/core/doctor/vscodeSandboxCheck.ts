/**
 * Which sandbox holds each agent's terminal commands, for `alfred doctor` and the window's doctor:
 * VS Code's own where it holds Alfred's rules in every editor here (Copilot's terminal commands only),
 * Alfred's for everything else (sandbox/vscodeSandbox.ts).
 */
import { VSCODE_SANDBOX_COMMAND } from '../sandbox/vscodeSandbox';
import type { VscodeSandboxReport } from '../sandbox/vscodeSettingsFiles';
import type { DoctorCheck } from './check';

export function vscodeSandboxCheck(report: VscodeSandboxReport): DoctorCheck {
  const name = 'VS Code sandbox';
  if (report.holds) {
    return { name, state: 'ok', detail: 'on, with Alfred\'s protected paths and the role\'s network names: it holds Copilot\'s terminal commands in VS Code (Alfred nests none inside); Alfred\'s sandbox holds the other agents\' commands and ctx_shell' };
  }
  const where = report.file ? ` (${report.file})` : '';
  if (report.off) return { name, state: 'ok', detail: `not in use: ${report.missing.join('; ')}${where}. Alfred's sandbox holds every agent's commands` };
  return {
    name, state: 'warn',
    detail: `on, but short of Alfred's rules${where}: ${report.missing.join('; ')}. Alfred's sandbox still holds every agent's commands, Copilot's nested inside VS Code's; run "Alfred: Put Alfred's Rules in VS Code's Sandbox" (${VSCODE_SANDBOX_COMMAND}) to fill it in`,
  };
}
