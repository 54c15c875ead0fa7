/**
 * OpenAI-compatible chat completions (OpenAI, OpenRouter, Ollama, LM Studio, llama.cpp's server, vLLM):
 * the neutral request to the wire, the streamed answer (SSE) back to neutral parts, and the model list.
 */
import { DEFAULT_TIMEOUT_MS, type EndpointConfig, fetchJson, hostOf, type HttpCall, joinUrl, type ListedModel, secretsOf, streamBody, withoutSecrets } from './http';
import { sseEvents } from './sse';
import { type ChatMessage, type ChatRequest, ProviderError, type ReportedTokens, type ResponsePart } from './types';

export interface OpenAiConfig extends EndpointConfig {
  /**
   * The field that caps the answer: OpenAI's own API wants `max_completion_tokens` (its reasoning models
   * refuse `max_tokens`), while many compatible servers know only `max_tokens`. Default: by host.
   */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

type Json = Record<string, unknown>;

const EMPTY_SCHEMA = { type: 'object', properties: {} };

export async function* streamOpenAiChat(config: OpenAiConfig, request: ChatRequest, signal: AbortSignal): AsyncGenerator<ResponsePart> {
  const call = httpCall(config, 'POST', 'chat/completions', signal, openAiRequestBody(config, request));
  const answer = new AnswerState(hostOf(call.url));
  try {
    for await (const event of sseEvents(streamBody(call))) {
      yield* answer.accept(event.data);
      if (answer.complete) return;
    }
    yield* answer.end();
  } catch (e) {
    throw withoutSecrets(e, call.secrets);
  }
}

/** The models the endpoint lists: OpenAI's `{data:[{id}]}` (with OpenRouter's, vLLM's, LM Studio's, llama.cpp's context fields), or Ollama's `{models:[{name}]}`. */
export async function listOpenAiModels(config: EndpointConfig, signal: AbortSignal): Promise<ListedModel[]> {
  const body = await fetchJson(httpCall(config, 'GET', 'models', signal)) as Json | unknown[];
  const entries = Array.isArray(body) ? body : Array.isArray(body?.data) ? body.data : Array.isArray(body?.models) ? body.models : undefined;
  if (!entries) throw new ProviderError('protocol', 'The model list has neither `data` nor `models`.');
  const models: ListedModel[] = [];
  for (const entry of entries as Json[]) {
    const id = [entry?.id, entry?.model, entry?.name].find((v) => typeof v === 'string' && v.length > 0) as string | undefined;
    if (!id) continue;
    const meta = entry.meta as Json | undefined;
    const topProvider = entry.top_provider as Json | undefined;
    const contextLength = [entry.context_length, entry.max_context_length, entry.loaded_context_length, entry.max_model_len,
      entry.context_window, topProvider?.context_length, meta?.n_ctx_train, meta?.n_ctx].find((v) => typeof v === 'number' && v > 0) as number | undefined;
    models.push(contextLength === undefined ? { id } : { id, contextLength });
  }
  return models;
}

/** The wire body of a streamed chat completion. */
export function openAiRequestBody(config: OpenAiConfig, request: ChatRequest): Json {
  const body: Json = {
    model: request.model,
    messages: request.messages.flatMap(toWireMessages),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools?.length) {
    body.tools = request.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema ?? EMPTY_SCHEMA } }));
    if (request.toolMode === 'required') body.tool_choice = 'required';
  }
  if (request.maxOutputTokens !== undefined) body[maxTokensField(config)] = request.maxOutputTokens;
  return body;
}

function maxTokensField(config: OpenAiConfig): string {
  if (config.maxTokensField) return config.maxTokensField;
  try {
    return new URL(config.baseUrl).hostname === 'api.openai.com' ? 'max_completion_tokens' : 'max_tokens';
  } catch {
    return 'max_tokens';
  }
}

function httpCall(config: EndpointConfig, method: 'GET' | 'POST', path: string, signal: AbortSignal, body?: Json): HttpCall {
  const headers: Record<string, string> = { accept: body ? 'text/event-stream' : 'application/json', ...config.headers };
  if (body) headers['content-type'] = 'application/json';
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  return { method, url: joinUrl(config.baseUrl, path), headers, body, secrets: secretsOf(config), timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS, signal };
}

/**
 * One neutral message as wire messages: tool results become `role: "tool"` messages placed first (they
 * answer the assistant's calls just before); the rest keeps its role.
 */
function toWireMessages(message: ChatMessage): Json[] {
  const out: Json[] = [];
  const content: Json[] = [];
  const toolCalls: Json[] = [];
  for (const part of message.parts) {
    switch (part.type) {
      case 'text':
        content.push({ type: 'text', text: part.text });
        break;
      case 'image':
        content.push({ type: 'image_url', image_url: { url: `data:${part.mimeType};base64,${Buffer.from(part.data).toString('base64')}` } });
        break;
      case 'toolCall':
        toolCalls.push({ id: part.callId, type: 'function', function: { name: part.name, arguments: JSON.stringify(part.input ?? {}) } });
        break;
      case 'toolResult':
        // The protocol has no error flag for a tool result: the content has to say it.
        out.push({ role: 'tool', tool_call_id: part.callId, content: part.content });
        break;
    }
  }
  if (message.role === 'assistant') {
    if (content.length || toolCalls.length) {
      const text = content.filter((c) => c.type === 'text').map((c) => c.text).join('');
      out.push({ role: 'assistant', content: text || (toolCalls.length ? null : ''), ...(toolCalls.length ? { tool_calls: toolCalls } : {}) });
    }
  } else if (content.length) {
    const parts = message.role === 'system' ? content.filter((c) => c.type === 'text') : content;
    // A lone text goes as a plain string: some compatible servers read nothing else.
    out.push({ role: message.role, content: parts.length === 1 && parts[0].type === 'text' ? parts[0].text : parts });
  }
  return out;
}

interface PendingCall { index: number; id: string; name: string; args: string }

/** The streamed answer's state: tool-call fragments, the refusal, the usage, until `[DONE]`. */
class AnswerState {
  complete = false;
  private readonly calls = new Map<number, PendingCall>();
  private lastIndex = -1;
  private usage: ReportedTokens | undefined;
  private finishReason: string | undefined;
  private refusal = '';

  constructor(private readonly host: string) {}

  accept(data: string): ResponsePart[] {
    if (!data.trim()) return []; // an empty keep-alive event
    if (data.trim() === '[DONE]') {
      this.complete = true;
      return this.end();
    }
    let chunk: Json;
    try {
      chunk = JSON.parse(data) as Json;
    } catch {
      throw new ProviderError('protocol', `${this.host} sent an event that is not JSON.`);
    }
    if (chunk.error) throw streamError(chunk.error);
    const out: ResponsePart[] = [];
    // Servers that report usage in every chunk report it cumulatively: the last one counts.
    if (chunk.usage && typeof chunk.usage === 'object') this.usage = tokensOf(chunk.usage as Json);
    for (const choice of (Array.isArray(chunk.choices) ? chunk.choices : []) as Json[]) {
      if ((choice.index ?? 0) !== 0) continue;
      const delta = (choice.delta ?? {}) as Json;
      const thinking = delta.reasoning_content ?? delta.reasoning;
      if (typeof thinking === 'string' && thinking) out.push({ type: 'thinking', text: thinking });
      if (typeof delta.content === 'string' && delta.content) out.push({ type: 'text', text: delta.content });
      if (typeof delta.refusal === 'string') this.refusal += delta.refusal;
      if (Array.isArray(delta.tool_calls)) for (const call of delta.tool_calls as Json[]) this.addCallDelta(call);
      if (typeof choice.finish_reason === 'string') {
        this.finishReason = choice.finish_reason;
        out.push(...this.takeCalls());
      }
    }
    return out;
  }

  /** The stream is over (`[DONE]`, or the body ended after a finish reason, as some servers do). */
  end(): ResponsePart[] {
    if (!this.complete && this.finishReason === undefined) {
      throw new ProviderError('protocol', `The stream from ${this.host} ended before the answer was complete.`);
    }
    const out: ResponsePart[] = this.takeCalls();
    if (this.refusal) out.push({ type: 'refusal', message: this.refusal });
    else if (this.finishReason === 'content_filter') out.push({ type: 'refusal', message: 'The provider\'s content filter stopped the answer.' });
    if (this.usage) out.push({ type: 'usage', usage: this.usage });
    out.push({ type: 'done', finishReason: this.finishReason });
    this.complete = true;
    return out;
  }

  /** A call's first fragment brings its id and name; later ones add to its arguments. */
  private addCallDelta(delta: Json): void {
    const fn = (delta.function ?? {}) as Json;
    const id = typeof delta.id === 'string' ? delta.id : '';
    // A server that numbers no calls sends each one whole: a new id is a new call, no id continues the last.
    const index = typeof delta.index === 'number' ? delta.index
      : id ? [...this.calls.values()].find((c) => c.id === id)?.index ?? this.lastIndex + 1
      : Math.max(this.lastIndex, 0);
    let call = this.calls.get(index);
    if (!call) {
      call = { index, id: '', name: '', args: '' };
      this.calls.set(index, call);
    }
    this.lastIndex = Math.max(this.lastIndex, index);
    if (id) call.id = id;
    if (typeof fn.name === 'string' && !call.name) call.name = fn.name;
    if (typeof fn.arguments === 'string') call.args += fn.arguments;
    else if (fn.arguments && typeof fn.arguments === 'object') call.args = JSON.stringify(fn.arguments);
  }

  private takeCalls(): ResponsePart[] {
    const calls = [...this.calls.values()].sort((a, b) => a.index - b.index);
    this.calls.clear();
    return calls.map((call) => {
      if (!call.name) throw new ProviderError('protocol', `${this.host} streamed a tool call without a name.`);
      let input: unknown;
      try {
        input = call.args.trim() ? JSON.parse(call.args) : {};
      } catch {
        throw new ProviderError('protocol', `The model called the tool "${call.name}" with arguments that are not valid JSON.`);
      }
      return { type: 'toolCall', callId: call.id || `call_${call.index}`, name: call.name, input };
    });
  }
}

/**
 * Usage as Alfred counts it: `prompt_tokens` already includes cache reads (`cached_tokens`, DeepSeek's
 * `prompt_cache_hit_tokens`) and OpenRouter's cache writes (`cache_write_tokens`).
 */
function tokensOf(usage: Json): ReportedTokens {
  const details = (usage.prompt_tokens_details ?? {}) as Json;
  return {
    inputTokens: count(usage.prompt_tokens),
    outputTokens: count(usage.completion_tokens),
    cachedInputTokens: count(details.cached_tokens ?? usage.prompt_cache_hit_tokens),
    cacheCreationInputTokens: count(details.cache_write_tokens),
  };
}

function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

/** An error sent inside the stream (OpenRouter does, after the status was already 200). */
function streamError(error: unknown): ProviderError {
  const e = (typeof error === 'object' && error ? error : { message: String(error) }) as Json;
  const status = typeof e.code === 'number' ? e.code : undefined;
  const message = typeof e.message === 'string' && e.message ? e.message : 'an error without a message';
  const kind = status === 401 || status === 403 ? 'auth' : 'http';
  return new ProviderError(kind, `The stream reported an error${status ? ` (${status})` : ''}: ${message}`, status);
}
