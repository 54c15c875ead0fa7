import * as path from 'node:path';
import * as vscode from 'vscode';
import { userSettingsFile } from '../usage/copilotOtelSettings';

/**
 * The settings file `alfred.providers` is read from. The setting is machine-scoped: in a remote window
 * (code-server, Remote-SSH, WSL, a dev container) VS Code ignores the user settings' value and reads
 * the remote machine's settings, `Machine/settings.json` beside the `User` folder that holds the
 * extensions' global storage. Measured in code-server: a value in the user settings was seen at start
 * and lost at the window's next configuration reload.
 */
export function providerSettingsFile(context: vscode.ExtensionContext, remoteName = vscode.env.remoteName): string {
  return remoteName === undefined
    ? userSettingsFile(context)
    : path.resolve(context.globalStorageUri.fsPath, '..', '..', '..', 'Machine', 'settings.json');
}
