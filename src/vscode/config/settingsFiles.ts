import * as path from 'node:path';
import type * as vscode from 'vscode';

/**
 * The settings files Alfred writes through the write pipeline, found from the extension's global
 * storage (`<User>/globalStorage/<extension>`), since VS Code's API names no settings file.
 */

/**
 * The user settings file. Copilot's OTel settings are application-scoped: VS Code keeps those in the
 * default profile's settings.json whatever profile is active, which is the `User` folder that holds
 * the extensions' global storage.
 */
export function userSettingsFile(context: vscode.ExtensionContext): string {
  return path.resolve(context.globalStorageUri.fsPath, '..', '..', 'settings.json');
}

/**
 * The settings file `alfred.providers` is read from. The setting is machine-scoped: in a remote window
 * (code-server, Remote-SSH, WSL, a dev container) VS Code ignores the user settings' value and reads
 * the remote machine's settings, `Machine/settings.json` beside the `User` folder. Measured in
 * code-server: a value in the user settings was seen at start and lost at the window's next
 * configuration reload.
 */
export function providerSettingsFile(context: vscode.ExtensionContext, remoteName: string | undefined): string {
  return remoteName === undefined
    ? userSettingsFile(context)
    : path.resolve(context.globalStorageUri.fsPath, '..', '..', '..', 'Machine', 'settings.json');
}
