import * as vscode from 'vscode';
import type { AlfredCommand } from './command';

/** Alfred: Open Dashboard — reveals the sidebar view. */
export const openDashboard: AlfredCommand = {
  id: 'alfred.openDashboard',
  run: () => vscode.commands.executeCommand('alfred.dashboard.focus'),
};
