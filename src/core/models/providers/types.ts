/**
 * Alfred's own model providers, in the core's terms: what a configured endpoint is, a request and the
 * parts of a streamed response, independent of VS Code's API and of each wire protocol. The VS Code
 * adapter (src/vscode/providers/) converts to and from `vscode.LanguageModelChat*`; the protocol
 * clients (openaiChat.ts, anthropicMessages.ts) convert to and from the wire.
 */
import type { ModelPrice } from '../../rules/budget/prices';

/** The two wire protocols: OpenAI-compatible chat completions (OpenAI, OpenRouter, Ollama, LM Studio, llama.cpp, vLLM) and Anthropic's messages API. */
export type ProviderProtocol = 'openai' | 'anthropic';

export type Intention = 'local' | 'vision' | 'reasoner' | 'fast';

/** One link of a profile's chain (`alfred.profiles`): the models it may pick. */
export interface ModelLink {
  vendor?: string;
  family?: string;
  id?: string;
  /** Only models with this intention (models/providers/intentions.ts), e.g. `{ "intention": "local" }`. */
  intention?: Intention;
}

/**
 * Where a key comes from, never the key itself: `$VAR` / `${VAR}` (the environment when the request is
 * made) or `secret:NAME` (VS Code's SecretStorage, set through a command).
 */
export type KeyReference =
  | { kind: 'env'; variable: string }
  | { kind: 'secret'; name: string }
  | { kind: 'none' };

export interface ProviderModelConfig {
  id: string;
  /** Shown in the model picker; defaults to the id. */
  name?: string;
  maxInputTokens?: number;
  maxOutputTokens?: number;
  vision?: boolean;
  toolCalling?: boolean;
  /** Marks a reasoning model (`reasoner`), when the name does not tell. */
  reasoning?: boolean;
  price?: ModelPrice;
}

export interface ProviderConfig {
  /** A short name: `[A-Za-z0-9_-]`, unique; the vendor-side prefix of its models' ids. */
  name: string;
  protocol: ProviderProtocol;
  /** The API's base URL, e.g. `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1`, `https://api.anthropic.com`. */
  baseUrl: string;
  key: KeyReference;
  /** The models to offer; `list` asks the endpoint (`GET /models`) which it has. */
  models: ProviderModelConfig[] | 'list';
  /** Prices for every model of this provider that has none of its own. */
  price?: ModelPrice;
  /** Request timeout for the first byte, in ms (default 60,000). */
  timeoutMs?: number;
}

export interface ProviderProblem {
  /** `settings: alfred.providers`. */
  path: string;
  /** `[1].key`. */
  key: string;
  message: string;
  /** The entry's name, when it has one: a person knows the entry by it, not by its index. */
  provider?: string;
}

// ── A request in neutral form ──

export type ChatRole = 'system' | 'user' | 'assistant';

export type RequestPart =
  | { type: 'text'; text: string }
  | { type: 'image'; mimeType: string; data: Uint8Array }
  | { type: 'toolCall'; callId: string; name: string; input: unknown }
  | { type: 'toolResult'; callId: string; content: string; isError?: boolean };

export interface ChatMessage {
  role: ChatRole;
  parts: RequestPart[];
}

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON schema of the input. */
  inputSchema?: object;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  /** `required`: the model must call a tool. */
  toolMode?: 'auto' | 'required';
  maxOutputTokens?: number;
}

// ── A response, as parts arrive ──

export interface ReportedTokens {
  inputTokens: number;
  outputTokens: number;
  /** Cache reads, part of inputTokens. */
  cachedInputTokens: number;
  /** Cache writes, part of inputTokens. */
  cacheCreationInputTokens: number;
}

export type ResponsePart =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string }
  /** A complete tool call: emitted once its arguments finished streaming. */
  | { type: 'toolCall'; callId: string; name: string; input: unknown }
  | { type: 'usage'; usage: ReportedTokens }
  /** The provider declined for safety or content policy: not a failure to fail over from. */
  | { type: 'refusal'; message: string }
  | { type: 'done'; finishReason: string | undefined };

/** Why a request failed, for failover and for the user. */
export type ProviderFailureKind =
  | 'http'          // a non-2xx answer (status set)
  | 'connection'    // refused, reset, DNS
  | 'timeout'       // no first byte in time, or the stream stalled
  | 'protocol'      // an answer that is not the protocol's
  | 'auth'          // 401/403, or a key that does not resolve
  | 'cancelled';    // the caller aborted: neutral for failover

export class ProviderError extends Error {
  constructor(readonly kind: ProviderFailureKind, message: string, readonly status?: number) {
    super(message);
    this.name = 'ProviderError';
  }
}
