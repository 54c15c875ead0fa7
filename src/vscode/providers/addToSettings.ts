import * as fs from 'node:fs';
import { parse as parseJsonc } from 'jsonc-parser';
import * as vscode from 'vscode';
import { withProviderAdded } from '../../core/providers/settingsEdit';
import type { ProviderConfig } from '../../core/providers/types';
import { confirmAndWrite } from '../config/confirmAndWrite';
import { syncUserSettings } from '../config/syncUserSettings';
import type { HarnessHost } from '../harnessHost';
import { providerSettingsFile } from '../config/settingsFiles';

/** Adds a provider to `alfred.providers` where VS Code reads it (providerSettingsFile): diff, confirm, backup, write; true when written. */
export async function addProviderToSettings(host: HarnessHost, extension: vscode.ExtensionContext, provider: ProviderConfig, request: { reason: string; title: string }): Promise<boolean> {
  const file = providerSettingsFile(extension, vscode.env.remoteName);
  let text: string | undefined;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    text = undefined;
  }
  const newText = withProviderAdded(text, provider);
  const written = await confirmAndWrite(host, { files: [{ path: file, newText }], ...request });
  if (written) await syncUserSettings({ 'alfred.providers': (parseJsonc(newText) as Record<string, unknown>)['alfred.providers'] });
  return written;
}
