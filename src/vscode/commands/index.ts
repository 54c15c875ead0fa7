import * as vscode from 'vscode';
import type { AlfredCommand, CommandContext } from './command';
import { openDashboard } from './openDashboard';
import { openEventLog } from './openEventLog';
import { resetBudget } from './resetBudget';
import { showBudget } from './showBudget';
import { showRoles } from './showRoles';
import { switchRole } from './switchRole';

const COMMANDS: readonly AlfredCommand[] = [switchRole, showBudget, resetBudget, openEventLog, showRoles, openDashboard];

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
