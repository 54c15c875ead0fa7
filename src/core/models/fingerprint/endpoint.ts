/**
 * The fingerprint's `endpoint`: where a model's requests went. Two providers of one name at different
 * base URLs are two configurations, and one renamed at the same URL is the same endpoint, so the value
 * is the URL, never the provider's name. A key may sit in a URL's userinfo, query or fragment: only the
 * scheme, host, port and path are kept, as the URL parser normalises them.
 */
import { parseOfferedId } from '../providers/catalog';
import type { ProviderConfig } from '../providers/types';
import { UNKNOWN } from './fingerprint';

/** `https://user:k@API.example.com:443/v1/?key=k#x` → `https://api.example.com/v1`; undefined when it is no URL. */
export function endpointOfUrl(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return undefined;
  }
  // Trailing slashes dropped as alfred.providers drops them, so `…/v1` and `…/v1/` are one endpoint.
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** A configured provider's endpoint (its base URL was checked when the setting was read). */
export function providerEndpoint(provider: Pick<ProviderConfig, 'baseUrl'>): string {
  return endpointOfUrl(provider.baseUrl) ?? UNKNOWN;
}

/** A condition's `endpoint` names a provider, or its URL as the fingerprint spells it. */
export function isEndpoint(provider: Pick<ProviderConfig, 'name' | 'baseUrl'>, wanted: string): boolean {
  return provider.name === wanted || providerEndpoint(provider) === endpointOfUrl(wanted);
}

/**
 * The endpoint of a model VS Code offers: one of Alfred's own (`alfred/<provider>/<model>`) is its
 * provider's URL; any other (Copilot's) goes where its vendor sends it, a URL Alfred cannot see, so
 * the vendor's name stands for it.
 */
export function modelEndpoint(modelId: string, vendor: string, providers: readonly ProviderConfig[]): string {
  const offered = parseOfferedId(modelId);
  const provider = offered && providers.find((p) => p.name === offered.provider);
  return provider ? providerEndpoint(provider) : vendor;
}
