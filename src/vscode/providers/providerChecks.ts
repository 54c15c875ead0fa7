import * as fs from 'node:fs';
import { parse as parseJsonc } from 'jsonc-parser';
import * as vscode from 'vscode';
import { probeProviders, type DoctorCheck } from '../../core/doctor/report';
import { problemLabel } from '../../core/models/providers/config';
import { resolveKey } from '../../core/models/providers/keys';
import { listModels } from '../../core/models/providers/stream';
import { readProviders } from './providerSettings';

/** Where `secret:NAME` keys live: set once at activation (the extension's own secret storage). */
let secretStorage: vscode.SecretStorage | undefined;

export function useSecretStorage(storage: vscode.SecretStorage): void {
  secretStorage = storage;
}

export function secretKey(name: string): Promise<string | undefined> {
  return Promise.resolve(secretStorage?.get(name));
}

/**
 * `alfred.providers` left in the user settings (`userSettings`, that file) of a remote window, where
 * VS Code ignores a machine setting's user value (config/settingsFiles.ts): said, since nothing else
 * would tell why those providers are missing.
 */
function ignoredUserValue(userSettings: string | undefined): DoctorCheck[] {
  if (userSettings === undefined || vscode.env.remoteName === undefined) return [];
  let settings: Record<string, unknown> | undefined;
  try {
    settings = parseJsonc(fs.readFileSync(userSettings, 'utf8')) as Record<string, unknown> | undefined;
  } catch {
    return [];
  }
  if (settings?.['alfred.providers'] === undefined) return [];
  return [{
    name: 'alfred.providers', state: 'warn',
    detail: vscode.l10n.t('in your user settings, which VS Code ignores for this machine setting in a remote window: move it to the remote settings (Preferences: Open Remote Settings (JSON)), or add each provider again with Alfred: Add Provider'),
  }];
}

/**
 * Every configured provider probed at once, and the settings' problems, for "Alfred: Doctor" and
 * `/doctor`; with `userSettings` (the user settings file), a value VS Code ignores there too.
 */
export async function providerChecks(userSettings?: string): Promise<DoctorCheck[]> {
  const { providers, problems } = readProviders();
  return [
    ...ignoredUserValue(userSettings),
    ...problems.map((p): DoctorCheck => ({ name: problemLabel(p), state: 'fail', detail: p.message })),
    ...await probeProviders(providers, {
      key: async (provider) => {
        if (provider.key.kind === 'none') return { ok: true, key: undefined };
        const key = await resolveKey(provider.key, { env: process.env, secret: secretKey });
        return key.ok ? { ok: true, key: key.key } : key;
      },
      list: (provider, key, signal) => listModels(provider, key, signal),
    }),
  ];
}
