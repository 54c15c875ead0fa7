import * as vscode from 'vscode';
import { probeProviders, type DoctorCheck } from '../../core/doctor/report';
import { resolveKey } from '../../core/providers/keys';
import { listModels } from '../../core/providers/stream';
import { readProviders } from './providerSettings';

/** Where `secret:NAME` keys live: set once at activation (the extension's own secret storage). */
let secretStorage: vscode.SecretStorage | undefined;

export function useSecretStorage(storage: vscode.SecretStorage): void {
  secretStorage = storage;
}

export function secretKey(name: string): Promise<string | undefined> {
  return Promise.resolve(secretStorage?.get(name));
}

/** Every configured provider probed at once, and the settings' problems, for "Alfred: Doctor" and `/doctor`. */
export async function providerChecks(): Promise<DoctorCheck[]> {
  const { providers, problems } = readProviders();
  return [
    ...problems.map((p): DoctorCheck => ({ name: `${p.path} ${p.key}`, state: 'fail', detail: p.message })),
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
