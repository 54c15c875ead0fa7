/** One entry point for a provider's protocol: the right client for its wire format. */
import { listAnthropicModels, streamAnthropicMessages } from './anthropicMessages';
import { listOpenAiModels, streamOpenAiChat } from './openaiChat';
import type { ChatRequest, ProviderConfig, ResponsePart } from './types';

export function streamChat(provider: ProviderConfig, apiKey: string | undefined, request: ChatRequest, signal: AbortSignal): AsyncGenerator<ResponsePart> {
  const config = { baseUrl: provider.baseUrl, ...(apiKey ? { apiKey } : {}), ...(provider.timeoutMs ? { timeoutMs: provider.timeoutMs } : {}) };
  return provider.protocol === 'anthropic' ? streamAnthropicMessages(config, request, signal) : streamOpenAiChat(config, request, signal);
}

export function listModels(provider: ProviderConfig, apiKey: string | undefined, signal: AbortSignal): Promise<Array<{ id: string; contextLength?: number }>> {
  const config = { baseUrl: provider.baseUrl, ...(apiKey ? { apiKey } : {}), ...(provider.timeoutMs ? { timeoutMs: provider.timeoutMs } : {}) };
  return provider.protocol === 'anthropic' ? listAnthropicModels(config, signal) : listOpenAiModels(config, signal);
}
