import * as vscode from 'vscode';
import { addProvider } from './addProvider';
import type { AlfredCommand, CommandContext } from './command';
import { configureVscodeSandbox } from './configureVscodeSandbox';
import { doctor } from './doctor';
import { editRole } from './editRole';
import { exportAgents } from './exportAgents';
import { exportTrace } from './exportTrace';
import { GOVERN_COMMANDS } from './governAgents';
import { newRole } from './newRole';
import { openDashboard } from './openDashboard';
import { openEventLog } from './openEventLog';
import { pinBackup } from './pinBackup';
import { reconcileOperations } from './reconcileOperations';
import { resetBudget } from './resetBudget';
import { restoreBackup } from './restoreBackup';
import { setProviderKey } from './setProviderKey';
import { showBudget } from './showBudget';
import { showRoles } from './showRoles';
import { switchRole } from './switchRole';
import { toggleAutopilot } from './toggleAutopilot';
import { verifyCompletion } from './verifyCompletion';
import { writeHandoff } from './writeHandoff';

const COMMANDS: readonly AlfredCommand[] = [switchRole, showBudget, resetBudget, openEventLog, showRoles, openDashboard,
  pinBackup, restoreBackup, newRole, editRole, verifyCompletion, reconcileOperations, writeHandoff, exportTrace, toggleAutopilot,
  ...GOVERN_COMMANDS, exportAgents, doctor, setProviderKey, addProvider, configureVscodeSandbox];

/** Registers every command; a failing command shows its message instead of failing silently. */
export function registerCommands(ctx: CommandContext): vscode.Disposable[] {
  return COMMANDS.map((c) => vscode.commands.registerCommand(c.id, async (...args: unknown[]) => {
    try {
      return await c.run(ctx, ...args);
    } catch (err) {
      void vscode.window.showErrorMessage((err as Error).message);
      return undefined;
    }
  }));
}
