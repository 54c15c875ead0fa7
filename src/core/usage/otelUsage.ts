/**
 * The usage of one model call from its OTel attributes, shared by the span and the log readers.
 * Attribute names: Copilot Chat's genAiAttributes.ts (findings §3).
 *
 * The id. A chat span and the inference log record of the same call both carry
 * `gen_ai.response.id` (chatMLFetcher.ts and the BYOK providers set the same request id on both),
 * and nothing else in common: Copilot starts the chat span with startSpan, never making it active,
 * so the log record's trace context is the ACTIVE span's — the invoke_agent (or execute_tool) that
 * encloses every round of the loop. Keyed on traceId:spanId, the log records of all rounds of a
 * loop would collapse into one, and none would meet its span. So: `response:<id>` when the response
 * id is known; otherwise the span's own `<traceId>:<spanId>`, or for a log record
 * `<traceId>:<spanId>:<time ns>` (unique, but it cannot meet its span).
 */
import type { ModelUsageRecord, UsageSource } from './types';
import { count, text, type Attributes } from './otelValues';

export const ATTR = {
  OPERATION: 'gen_ai.operation.name',
  REQUEST_MODEL: 'gen_ai.request.model',
  RESPONSE_MODEL: 'gen_ai.response.model',
  RESPONSE_ID: 'gen_ai.response.id',
  CONVERSATION_ID: 'gen_ai.conversation.id',
  SESSION_ID: 'copilot_chat.session_id',
  INPUT: 'gen_ai.usage.input_tokens',
  OUTPUT: 'gen_ai.usage.output_tokens',
  CACHE_READ: 'gen_ai.usage.cache_read.input_tokens',
  CACHE_CREATION: 'gen_ai.usage.cache_creation.input_tokens',
  REASONING: 'gen_ai.usage.reasoning.output_tokens',
  REASONING_LEGACY: 'gen_ai.usage.reasoning_tokens',
  EVENT_NAME: 'event.name',
  SERVICE_NAME: 'service.name',
} as const;

/** The Copilot CLI's service name (findings §6); Copilot Chat's is `copilot-chat` unless OTEL_SERVICE_NAME says otherwise. */
const CLI_SERVICE = 'github-copilot';

export function sourceOf(resource: Attributes, fallback: UsageSource): UsageSource {
  return resource.get(ATTR.SERVICE_NAME) === CLI_SERVICE ? 'copilot-cli-otel' : fallback;
}

export interface UsageContext {
  /** The key used when the call has no response id. */
  fallbackId: string;
  source: UsageSource;
  sessionId: string | undefined;
  at: string;
  /** The model when the attributes name none (a span's name, a log body's). */
  model: string | undefined;
}

/**
 * The record, or undefined when the call reported no usage (a failed or cancelled request: its
 * span or log has no token counts, and nothing was measured).
 */
export function usageRecord(attrs: Attributes, ctx: UsageContext): ModelUsageRecord | undefined {
  const input = count(attrs.get(ATTR.INPUT));
  const output = count(attrs.get(ATTR.OUTPUT));
  if (input === undefined && output === undefined) return undefined;
  const cached = count(attrs.get(ATTR.CACHE_READ)) ?? 0;
  const creation = count(attrs.get(ATTR.CACHE_CREATION)) ?? 0;
  // Copilot reports prompt_tokens, cache included (its Anthropic BYOK provider adds the cache
  // fields into it too). An input below its own cache parts can only be a reporter with Anthropic's
  // disjoint fields: then the cache parts are added, so inputTokens always means all input.
  const reported = input ?? 0;
  const inputTokens = reported < cached + creation ? reported + cached + creation : reported;
  const responseId = text(attrs.get(ATTR.RESPONSE_ID));
  const record: ModelUsageRecord = {
    id: responseId ? `response:${responseId}` : ctx.fallbackId,
    source: ctx.source,
    model: text(attrs.get(ATTR.RESPONSE_MODEL)) ?? text(attrs.get(ATTR.REQUEST_MODEL)) ?? ctx.model ?? 'unknown',
    inputTokens,
    outputTokens: output ?? 0,
    cachedInputTokens: cached,
    cacheCreationInputTokens: creation,
    // Dual-emitted under two names for the same count: take one, never the sum.
    reasoningTokens: count(attrs.get(ATTR.REASONING)) ?? count(attrs.get(ATTR.REASONING_LEGACY)) ?? 0,
    at: ctx.at,
    measured: true,
  };
  if (ctx.sessionId) record.sessionId = ctx.sessionId;
  return record;
}
