import * as vscode from 'vscode';

/**
 * After the write pipeline changed a settings file VS Code reads (the user's, or in a remote window
 * the machine's, config/settingsFiles.ts): the same values through VS Code's own configuration API,
 * so this window sees them now. A desktop VS Code notices the file change by itself; code-server does
 * not notice a settings file written by another process (measured: not within 30 s), so without this
 * the new values would wait for a reload. The values are those just written, so VS Code's own write
 * leaves the file as it is; for a machine-scoped key in a remote window VS Code writes the machine's
 * file, not the user's (measured in code-server: governance.e2e's Add Provider leaves the user
 * settings as they were).
 */
export async function syncUserSettings(values: Readonly<Record<string, unknown>>): Promise<void> {
  const config = vscode.workspace.getConfiguration();
  for (const [key, value] of Object.entries(values)) {
    try {
      await config.update(key, value, vscode.ConfigurationTarget.Global);
    } catch (err) {
      // A setting no installed extension declares cannot be written this way; the file has it.
      console.error(`[alfred] ${key} is in the settings file but could not be applied now:`, err);
    }
  }
}
