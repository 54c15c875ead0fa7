import * as vscode from 'vscode';
import { LOCAL_ENDPOINTS, localOffers, type ProbeResult } from '../../core/models/providers/localFirst';
import { listModels } from '../../core/models/providers/stream';
import type { HarnessHost } from '../harnessHost';
import { addProviderToSettings } from './addToSettings';
import { readProviders } from './providerSettings';

/** Probes answer fast on loopback; a port nobody listens on is refused at once. */
const PROBE_TIMEOUT_MS = 1_500;
const DECLINED_KEY = 'alfred.localFirst.declined';

/** Which local model servers (Ollama's, LM Studio's default ports) answer now, in parallel. */
export function probeLocalEndpoints(): Promise<ProbeResult[]> {
  return Promise.all(LOCAL_ENDPOINTS.map(async (e): Promise<ProbeResult> => {
    try {
      const models = await listModels({ name: e.name, protocol: e.protocol, baseUrl: e.baseUrl, key: { kind: 'none' }, models: 'list', timeoutMs: PROBE_TIMEOUT_MS }, undefined, AbortSignal.timeout(PROBE_TIMEOUT_MS));
      return { baseUrl: e.baseUrl, ok: true, models: models.map((m) => m.id) };
    } catch {
      return { baseUrl: e.baseUrl, ok: false };
    }
  }));
}

/**
 * Local first: when a local model server answers and is not configured yet, Alfred says so and offers
 * to add it as a provider (through the write pipeline's diff and confirmation). A "no" is remembered.
 */
export async function offerLocalEndpoints(host: HarnessHost, extension: vscode.ExtensionContext): Promise<void> {
  const declined = new Set(extension.globalState.get<string[]>(DECLINED_KEY, []));
  const offers = localOffers(await probeLocalEndpoints(), readProviders().providers).filter((o) => !declined.has(o.endpoint.baseUrl));
  for (const offer of offers) {
    const add = vscode.l10n.t('Add as Alfred\'s provider');
    const never = vscode.l10n.t('Don\'t ask again');
    const models = offer.models.length ? offer.models.slice(0, 3).join(', ') + (offer.models.length > 3 ? '…' : '') : vscode.l10n.t('no model pulled yet');
    const answer = await vscode.window.showInformationMessage(vscode.l10n.t('{0} answers on this machine at {1} ({2}). Local models keep your code here and cost nothing.', offer.endpoint.label, offer.endpoint.baseUrl, models), add, never);
    if (answer === never) await extension.globalState.update(DECLINED_KEY, [...declined, offer.endpoint.baseUrl]);
    if (answer !== add) continue;
    await addProviderToSettings(host, extension, offer.suggested, {
      reason: `add the local model server ${offer.endpoint.label} as a provider`,
      title: vscode.l10n.t('Add {0} as Alfred\'s provider', offer.endpoint.label), listed: offer.models,
    });
  }
}
