/**
 * The model the headless loop talks to: one of Alfred's own providers (OpenAI-compatible or
 * Anthropic), through the core's wire clients. The loop sees only this interface, so a test or
 * another caller can give it any model that streams neutral response parts.
 */
import { providerEndpoint } from '../models/fingerprint/endpoint';
import { streamChat } from '../models/providers/stream';
import type { ChatRequest, ProviderConfig, ResponsePart } from '../models/providers/types';

export interface AgentModel {
  /** The model's id as the endpoint spells it (priced and fingerprinted by it). */
  readonly id: string;
  /** The provider's name (its charges' vendor). */
  readonly vendor: string;
  /** Where its requests go (models/fingerprint/endpoint.ts): the fingerprint's endpoint. */
  readonly endpoint: string;
  stream(request: Omit<ChatRequest, 'model'>, signal: AbortSignal): AsyncIterable<ResponsePart>;
}

export function providerModel(provider: ProviderConfig, modelId: string, apiKey: string | undefined): AgentModel {
  return {
    id: modelId,
    vendor: provider.name,
    endpoint: providerEndpoint(provider),
    stream: (request, signal) => streamChat(provider, apiKey, { ...request, model: modelId }, signal),
  };
}

/**
 * Picks `provider/model` (or a bare model id, or nothing: the first configured model) among the
 * providers; undefined with the reason when there is none to pick.
 */
export function pickModel(providers: readonly ProviderConfig[], wanted: string | undefined): { provider: ProviderConfig; model: string } | { problem: string } {
  if (providers.length === 0) return { problem: 'no provider is configured (alfred.providers)' };
  const listed = (p: ProviderConfig): string[] => (p.models === 'list' ? [] : p.models.map((m) => m.id));
  if (!wanted) {
    const p = providers.find((x) => listed(x).length > 0);
    return p ? { provider: p, model: listed(p)[0]! } : { problem: 'no provider lists its models: name one as model = "provider/model"' };
  }
  const slash = wanted.indexOf('/');
  const named = slash > 0 ? providers.find((p) => p.name === wanted.slice(0, slash)) : undefined;
  if (named) return { provider: named, model: wanted.slice(slash + 1) };
  const holder = providers.find((p) => listed(p).includes(wanted));
  if (holder) return { provider: holder, model: wanted };
  return { problem: `model "${wanted}" is not one of the configured providers' (write it as provider/model)` };
}
