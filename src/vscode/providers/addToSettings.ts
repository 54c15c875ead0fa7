import * as fs from 'node:fs';
import { parse as parseJsonc } from 'jsonc-parser';
import * as vscode from 'vscode';
import { withProviderAdded } from '../../core/models/providers/settingsEdit';
import type { ProviderConfig } from '../../core/models/providers/types';
import { confirmAndWrite } from '../config/confirmAndWrite';
import { syncUserSettings } from '../config/syncUserSettings';
import type { HarnessHost } from '../harnessHost';
import { useProviderModel } from '../models/chatModelChoice';
import { providerSettingsFile } from '../config/settingsFiles';

/**
 * Adds a provider to `alfred.providers` where VS Code reads it (providerSettingsFile): diff, confirm,
 * backup, write; true when written. Then the chat uses its first model and Alfred says which
 * (`listed`: the ids in the server's own order, when known).
 */
export async function addProviderToSettings(host: HarnessHost, extension: vscode.ExtensionContext, provider: ProviderConfig, request: { reason: string; title: string; listed?: readonly string[] }): Promise<boolean> {
  const file = providerSettingsFile(extension, vscode.env.remoteName);
  let text: string | undefined;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    text = undefined;
  }
  const newText = withProviderAdded(text, provider);
  const written = await confirmAndWrite(host, { files: [{ path: file, newText }], reason: request.reason, title: request.title });
  if (!written) return false;
  await syncUserSettings({ 'alfred.providers': (parseJsonc(newText) as Record<string, unknown>)['alfred.providers'] });
  await useProviderModel(provider.name, request.listed);
  return true;
}
