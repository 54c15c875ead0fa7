/**
 * One model request's usage as the agent or its provider reported it (ARCHITECTURE.md, Cost is measured where
 * it is reported). Readers of each source produce these; the harness
 * prices and charges them, deduplicating on `id`.
 */

export type UsageSource = 'copilot-otel' | 'copilot-cli-otel' | 'claude-transcript' | 'gemini-transcript' | 'alfred';

export interface ModelUsageRecord {
  /**
   * Stable dedupe key: the same request read twice (a span and its log record, a re-read file, an
   * exporter's retry) gives the same id. See otelUsage.ts for how the OTel readers build it.
   */
  id: string;
  source: UsageSource;
  /**
   * The agent session: Copilot's `copilot_chat.session_id` / `gen_ai.conversation.id` of the
   * invoke_agent span, equal to the hook input's `session_id`. Absent when the report does not say.
   */
  sessionId?: string;
  model: string;
  /** All input tokens, cached ones included (OpenAI's `prompt_tokens`). */
  inputTokens: number;
  outputTokens: number;
  /** Cache reads, part of `inputTokens`. */
  cachedInputTokens: number;
  /** Cache writes, part of `inputTokens`. */
  cacheCreationInputTokens: number;
  /** Reasoning tokens, part of `outputTokens`. */
  reasoningTokens: number;
  /** ISO time the request ended. */
  at: string;
  measured: true;
}
