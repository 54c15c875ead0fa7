/**
 * Anthropic's messages API: the neutral request to the wire, the streamed answer (typed SSE events) back
 * to neutral parts, and the model list.
 */
import { DEFAULT_TIMEOUT_MS, type EndpointConfig, fetchJson, hostOf, type HttpCall, type ListedModel, secretsOf, streamBody, withoutSecrets } from './http';
import { type SseEvent, sseEvents } from './sse';
import { type ChatMessage, type ChatRequest, ProviderError, type ResponsePart } from './types';

type Json = Record<string, unknown>;

export const ANTHROPIC_VERSION = '2023-06-01';
/** The API requires `max_tokens`; this is used when the request sets none. */
export const DEFAULT_MAX_TOKENS = 4096;
const EMPTY_SCHEMA = { type: 'object', properties: {} };
/** More pages than any real list has: a bound in case a server always says `has_more`. */
const MAX_MODEL_PAGES = 20;

export async function* streamAnthropicMessages(config: EndpointConfig, request: ChatRequest, signal: AbortSignal): AsyncGenerator<ResponsePart> {
  const call = httpCall(config, 'POST', 'messages', signal, anthropicRequestBody(request));
  const answer = new AnswerState(hostOf(call.url));
  try {
    for await (const event of sseEvents(streamBody(call))) {
      yield* answer.accept(event);
      if (answer.complete) return;
    }
    yield* answer.end();
  } catch (e) {
    throw withoutSecrets(e, call.secrets);
  }
}

/** The models the endpoint lists (`GET /v1/models`, page by page). */
export async function listAnthropicModels(config: EndpointConfig, signal: AbortSignal): Promise<ListedModel[]> {
  const models: ListedModel[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_MODEL_PAGES; page++) {
    const query = `models?limit=1000${after ? `&after_id=${encodeURIComponent(after)}` : ''}`;
    const body = await fetchJson(httpCall(config, 'GET', query, signal)) as Json;
    if (!Array.isArray(body?.data)) throw new ProviderError('protocol', 'The model list has no `data`.');
    for (const entry of body.data as Json[]) {
      if (typeof entry?.id !== 'string' || !entry.id) continue;
      models.push(typeof entry.max_input_tokens === 'number' ? { id: entry.id, contextLength: entry.max_input_tokens } : { id: entry.id });
    }
    if (body.has_more !== true || typeof body.last_id !== 'string') break;
    after = body.last_id;
  }
  return models;
}

/** `${baseUrl}/v1/<path>`, without doubling a `/v1` the base already ends with. */
export function anthropicUrl(baseUrl: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return `${base}${/\/v1$/.test(base) ? '' : '/v1'}/${path}`;
}

/** The wire body of a streamed message. */
export function anthropicRequestBody(request: ChatRequest): Json {
  const system = request.messages.filter((m) => m.role === 'system')
    .map((m) => m.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('')).filter(Boolean).join('\n\n');
  const body: Json = {
    model: request.model,
    max_tokens: request.maxOutputTokens ?? DEFAULT_MAX_TOKENS,
    stream: true,
    ...(system ? { system } : {}),
    messages: request.messages.filter((m) => m.role !== 'system').flatMap(toWireMessages),
  };
  if (request.tools?.length) {
    body.tools = request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema ?? EMPTY_SCHEMA }));
    if (request.toolMode === 'required') body.tool_choice = { type: 'any' };
  }
  return body;
}

function httpCall(config: EndpointConfig, method: 'GET' | 'POST', path: string, signal: AbortSignal, body?: Json): HttpCall {
  const headers: Record<string, string> = {
    accept: body ? 'text/event-stream' : 'application/json',
    'anthropic-version': ANTHROPIC_VERSION,
    ...config.headers,
  };
  if (body) headers['content-type'] = 'application/json';
  if (config.apiKey) headers['x-api-key'] = config.apiKey;
  return { method, url: anthropicUrl(config.baseUrl, path), headers, body, secrets: secretsOf(config), timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS, signal };
}

/**
 * One neutral message as wire messages. Tool results belong in a user message, before its other
 * blocks; empty texts are left out because the API refuses them.
 */
function toWireMessages(message: ChatMessage): Json[] {
  const results: Json[] = [];
  const blocks: Json[] = [];
  for (const part of message.parts) {
    switch (part.type) {
      case 'text':
        if (part.text) blocks.push({ type: 'text', text: part.text });
        break;
      case 'image':
        blocks.push({ type: 'image', source: { type: 'base64', media_type: part.mimeType, data: Buffer.from(part.data).toString('base64') } });
        break;
      case 'toolCall':
        blocks.push({ type: 'tool_use', id: part.callId, name: part.name, input: part.input ?? {} });
        break;
      case 'toolResult':
        results.push({ type: 'tool_result', tool_use_id: part.callId, content: part.content, ...(part.isError ? { is_error: true } : {}) });
        break;
    }
  }
  if (message.role === 'user') return results.length || blocks.length ? [{ role: 'user', content: [...results, ...blocks] }] : [];
  const out: Json[] = [];
  if (blocks.length) out.push({ role: 'assistant', content: blocks });
  if (results.length) out.push({ role: 'user', content: results });
  return out;
}

/** Status codes of the API's error types, for an error that arrives inside a 200 stream. */
const ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400, authentication_error: 401, billing_error: 402, permission_error: 403, not_found_error: 404,
  request_too_large: 413, rate_limit_error: 429, api_error: 500, timeout_error: 504, overloaded_error: 529,
};

interface ToolBlock { id: string; name: string; json: string; input: unknown }
type UsageField = 'input_tokens' | 'output_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens';

/** The streamed answer's state: open tool-use blocks, the usage so far, the stop reason. */
class AnswerState {
  complete = false;
  private readonly tools = new Map<number, ToolBlock>();
  private readonly usage: Record<UsageField, number | undefined> = {
    input_tokens: undefined, output_tokens: undefined, cache_read_input_tokens: undefined, cache_creation_input_tokens: undefined,
  };
  private stopReason: string | undefined;

  constructor(private readonly host: string) {}

  accept(event: SseEvent): ResponsePart[] {
    if (!event.data.trim()) return []; // an empty keep-alive event
    let data: Json;
    try {
      data = JSON.parse(event.data) as Json;
    } catch {
      throw new ProviderError('protocol', `${this.host} sent an event that is not JSON.`);
    }
    switch (data.type ?? event.event) {
      case 'message_start':
        this.addUsage((data.message as Json | undefined)?.usage);
        return [];
      case 'content_block_start':
        return this.startBlock(data.index as number, (data.content_block ?? {}) as Json);
      case 'content_block_delta':
        return this.delta(data.index as number, (data.delta ?? {}) as Json);
      case 'content_block_stop':
        return this.stopBlock(data.index as number);
      case 'message_delta': {
        const reason = (data.delta as Json | undefined)?.stop_reason;
        if (typeof reason === 'string') this.stopReason = reason;
        this.addUsage(data.usage);
        return [];
      }
      case 'message_stop':
        this.complete = true;
        return this.end();
      case 'error':
        throw streamError(data.error);
      default:
        return []; // `ping`, and event types newer than this client
    }
  }

  /** `message_stop` arrived; else the stream broke off. */
  end(): ResponsePart[] {
    if (!this.complete) throw new ProviderError('protocol', `The stream from ${this.host} ended before the answer was complete.`);
    const out: ResponsePart[] = [];
    if (this.stopReason === 'refusal') out.push({ type: 'refusal', message: 'The model declined to go on (stop reason: refusal).' });
    const u = this.usage;
    if (Object.values(u).some((v) => v !== undefined)) {
      const cached = u.cache_read_input_tokens ?? 0;
      const created = u.cache_creation_input_tokens ?? 0;
      // Alfred's convention: inputTokens counts the cached tokens too; Anthropic reports them apart.
      out.push({ type: 'usage', usage: { inputTokens: (u.input_tokens ?? 0) + cached + created, outputTokens: u.output_tokens ?? 0, cachedInputTokens: cached, cacheCreationInputTokens: created } });
    }
    out.push({ type: 'done', finishReason: this.stopReason });
    return out;
  }

  private startBlock(index: number, block: Json): ResponsePart[] {
    if (block.type === 'tool_use') {
      this.tools.set(index, { id: String(block.id ?? ''), name: String(block.name ?? ''), json: '', input: block.input ?? {} });
      return [];
    }
    if (block.type === 'text' && typeof block.text === 'string' && block.text) return [{ type: 'text', text: block.text }];
    if (block.type === 'thinking' && typeof block.thinking === 'string' && block.thinking) return [{ type: 'thinking', text: block.thinking }];
    return [];
  }

  private delta(index: number, delta: Json): ResponsePart[] {
    if (delta.type === 'text_delta' && typeof delta.text === 'string' && delta.text) return [{ type: 'text', text: delta.text }];
    if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string' && delta.thinking) return [{ type: 'thinking', text: delta.thinking }];
    if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
      const tool = this.tools.get(index);
      if (tool) tool.json += delta.partial_json;
    }
    return []; // signatures and citations are not parts
  }

  private stopBlock(index: number): ResponsePart[] {
    const tool = this.tools.get(index);
    if (!tool) return [];
    this.tools.delete(index);
    if (!tool.id || !tool.name) throw new ProviderError('protocol', `${this.host} streamed a tool call without an id or a name.`);
    let input = tool.input;
    if (tool.json.trim()) {
      try {
        input = JSON.parse(tool.json);
      } catch {
        throw new ProviderError('protocol', `The model called the tool "${tool.name}" with arguments that are not valid JSON.`);
      }
    }
    return [{ type: 'toolCall', callId: tool.id, name: tool.name, input }];
  }

  /** `message_start` has the input side; `message_delta` the output (and, newer, cumulative input): the latest value counts. */
  private addUsage(usage: unknown): void {
    if (!usage || typeof usage !== 'object') return;
    for (const key of Object.keys(this.usage) as (keyof AnswerState['usage'])[]) {
      const v = (usage as Json)[key];
      if (typeof v === 'number' && Number.isFinite(v) && v >= 0) this.usage[key] = v;
    }
  }
}

function streamError(error: unknown): ProviderError {
  const e = (typeof error === 'object' && error ? error : {}) as Json;
  const type = typeof e.type === 'string' ? e.type : 'error';
  const status = ERROR_STATUS[type];
  const message = typeof e.message === 'string' && e.message ? e.message : 'no message';
  const kind = status === 401 || status === 403 ? 'auth' : 'http';
  return new ProviderError(kind, `The stream reported ${type}: ${message}`, status);
}
