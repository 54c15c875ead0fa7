/**
 * Local-first: the local servers Alfred looks for at their default ports, and what to offer when one
 * answers. No network here: the adapter probes (`GET {baseUrl}/models`) and hands the results in.
 */
import type { ProviderConfig } from './types';

export interface LocalEndpoint {
  /** The suggested provider name. */
  name: string;
  /** What the user knows it as. */
  label: string;
  baseUrl: string;
  protocol: 'openai';
}

/** Both speak OpenAI's chat completions under `/v1`, and need no key. */
export const LOCAL_ENDPOINTS: readonly LocalEndpoint[] = [
  { name: 'ollama', label: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', protocol: 'openai' },
  { name: 'lmstudio', label: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1', protocol: 'openai' },
];

/** The path the adapter probes, under the base URL: the model list answers without a key. */
export const PROBE_PATH = '/models';

export interface ProbeResult {
  baseUrl: string;
  /** It answered the model list with a 2xx. */
  ok: boolean;
  /** The model ids it listed. */
  models?: readonly string[];
}

export interface LocalOffer {
  endpoint: LocalEndpoint;
  /** The ids it listed, in its order, without repeats; empty when it has none yet. */
  models: string[];
  /** The `alfred.providers` entry to add. */
  suggested: ProviderConfig;
}

/**
 * The local endpoints to offer: those that answered and that no configured provider already points
 * at (`localhost` and `127.0.0.1` count as the same host). The suggested name avoids taken names.
 */
export function localOffers(results: readonly ProbeResult[], configured: readonly Pick<ProviderConfig, 'name' | 'baseUrl'>[] = []): LocalOffer[] {
  const taken = new Set(configured.map((p) => p.name.toLowerCase()));
  const configuredUrls = new Set(configured.map((p) => sameEndpointKey(p.baseUrl)));
  const offers: LocalOffer[] = [];
  for (const endpoint of LOCAL_ENDPOINTS) {
    const result = results.find((r) => sameEndpointKey(r.baseUrl) === sameEndpointKey(endpoint.baseUrl));
    if (!result?.ok || configuredUrls.has(sameEndpointKey(endpoint.baseUrl))) continue;
    const name = freeName(endpoint.name, taken);
    taken.add(name.toLowerCase());
    offers.push({
      endpoint,
      models: [...new Set(result.models ?? [])],
      suggested: { name, protocol: endpoint.protocol, baseUrl: endpoint.baseUrl, key: { kind: 'none' }, models: 'list' },
    });
  }
  return offers;
}

/** `ollama`, else `ollama-2`, `ollama-3`, … (compared without case, as parseProviders does). */
function freeName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

/** Scheme, host and path, with loopback names and the default port folded, trailing slashes dropped. */
function sameEndpointKey(baseUrl: string): string {
  try {
    const u = new URL(baseUrl);
    const host = u.hostname === 'localhost' || u.hostname === '[::1]' ? '127.0.0.1' : u.hostname;
    return `${u.protocol}//${host}:${u.port || (u.protocol === 'https:' ? '443' : '80')}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return baseUrl;
  }
}
