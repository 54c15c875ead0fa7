/**
 * A real streaming model endpoint on 127.0.0.1 for tests (unit, integration, end to end): it speaks
 * OpenAI's chat completions and Anthropic's messages API over SSE, lists models, and answers each chat
 * request with the next scripted step, rendered in the protocol the request used. Every request is
 * recorded (method, path, headers, JSON body), so a test can check what was sent, and where a key went.
 *
 *   const server = await startFakeModelServer();
 *   server.script([{ text: ['Hel', 'lo'], usage: { inputTokens: 12, outputTokens: 2 } }]);
 *   // POST `${server.url}/v1/chat/completions` or `${server.url}/v1/messages` …
 *   await server.close();
 *
 * Plain TypeScript on node:http, no test framework: any test runner or a script can start it.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeToolCall {
  id: string;
  name: string;
  /** The arguments' JSON text in the fragments to stream (the client concatenates them). */
  arguments: string[];
}

/** Token counts in Alfred's terms; each protocol gets them in its own shape. */
export interface FakeUsage {
  /** All input tokens, cached included: OpenAI's `prompt_tokens`; Anthropic gets `input_tokens` = this − cached − cache writes. */
  inputTokens: number;
  outputTokens: number;
  /** OpenAI's `prompt_tokens_details.cached_tokens`, Anthropic's `cache_read_input_tokens`. */
  cachedInputTokens?: number;
  /** Anthropic's `cache_creation_input_tokens` (OpenAI's wire has none). */
  cacheCreationInputTokens?: number;
}

/** How the server answers one request. The answer's parts stream in the order of these fields. */
export interface FakeStep {
  /** Which requests the step answers: chat (default), or a model listing. */
  on?: 'chat' | 'models';
  thinking?: string[];
  text?: string[];
  /** OpenAI: `delta.refusal` fragments. */
  refusalText?: string[];
  toolCalls?: FakeToolCall[];
  /** OpenAI: stream the calls' fragments in turn (call 0, call 1, call 0, …) rather than one call after the other. */
  interleaveToolCalls?: boolean;
  /** A safety stop: OpenAI's `finish_reason: "content_filter"`, Anthropic's `stop_reason: "refusal"`. */
  contentFilter?: boolean;
  /** Sent only when given (and, for OpenAI, only when the request asked with `stream_options.include_usage`). */
  usage?: FakeUsage;
  /** Overrides the finish / stop reason the step would otherwise give. */
  finishReason?: string;
  /** An error event inside the stream, after the content: OpenAI `{error}` data, Anthropic `event: error`. */
  streamError?: { message: string; type?: string; code?: number };

  /** An HTTP error: this status with a JSON error body in the protocol's shape. */
  status?: number;
  /** The error body's message (with `status`). */
  error?: string;
  /** A JSON body verbatim (with `status`, default 200), e.g. a model list in some server's own shape. */
  json?: unknown;
  /** The SSE body verbatim, one write per string. */
  sse?: string[];

  /** Wait before the status line: a slow first byte. */
  firstByteDelayMs?: number;
  /** Wait before each write of the stream but the first (and before a drop, a stall or the end). */
  chunkDelayMs?: number;
  /** Destroy the connection after this many writes of the stream. */
  dropAfterChunks?: number;
  /** Send nothing more, but keep the connection open, after this many writes of the stream. */
  stallAfterChunks?: number;
}

export interface FakeModel {
  id: string;
  contextLength?: number;
}

export interface RecordedFakeRequest {
  method: string;
  /** The path with its query, e.g. `/v1/models?limit=1000`. */
  path: string;
  /** Lower-cased names, as Node gives them. */
  headers: Record<string, string>;
  /** The parsed JSON body; undefined when there was none or it was not JSON. */
  body: unknown;
  /** The body as received. */
  text: string;
}

export interface FakeModelServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  /** Every request so far, oldest first. */
  readonly requests: RecordedFakeRequest[];
  /** The models a listing returns when no `models` step is queued (default: `fake-model`). */
  models: FakeModel[];
  /** Replaces the queue of steps; each request takes the first step for its kind. */
  script(steps: FakeStep[]): void;
  /** Steps not yet taken. */
  readonly remaining: number;
  /** Closes for good, dropping open connections. */
  close(): Promise<void>;
  /** Refuses connections (drops the open ones) until start(). */
  stop(): Promise<void>;
  /** Listens again, on the same port. */
  start(): Promise<void>;
}

export interface FakeServerOptions {
  /** When set, a request without this key (`Authorization: Bearer` or `x-api-key`) gets a 401. */
  apiKey?: string;
  /** A fixed port (e.g. a local server's default one); default: any free port. */
  port?: number;
}

export async function startFakeModelServer(options: FakeServerOptions = {}): Promise<FakeModelServer> {
  const server = new Server(options);
  await server.start();
  return server;
}

type Protocol = 'openai' | 'anthropic';
type Json = Record<string, unknown>;

class Server implements FakeModelServer {
  port = 0;
  readonly requests: RecordedFakeRequest[] = [];
  models: FakeModel[] = [{ id: 'fake-model' }];
  private steps: FakeStep[] = [];
  // A request that fails half-way (the client went away) just ends its connection.
  private readonly http = http.createServer((req, res) => { this.handle(req, res).catch(() => res.destroy()); });
  private readonly timers = new Set<NodeJS.Timeout>();
  private counter = 0;

  constructor(private readonly options: FakeServerOptions) {
    this.port = options.port ?? 0;
  }

  get url(): string { return `http://127.0.0.1:${this.port}`; }
  get remaining(): number { return this.steps.length; }

  script(steps: FakeStep[]): void { this.steps = [...steps]; }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.port, '127.0.0.1', () => {
        this.http.off('error', reject);
        this.port = (this.http.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    return new Promise((resolve) => {
      if (!this.http.listening) return resolve();
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
  }

  close(): Promise<void> { return this.stop(); }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const text = await readBody(req);
    const recorded = record(req, text);
    this.requests.push(recorded);
    const path = (req.url ?? '/').split('?')[0];
    const protocol: Protocol = path.endsWith('/messages') || recorded.headers['anthropic-version'] ? 'anthropic' : 'openai';
    const kind = req.method === 'GET' && path.endsWith('/models') ? 'models'
      : req.method === 'POST' && (path.endsWith('/chat/completions') || path.endsWith('/messages')) ? 'chat' : undefined;

    if (!kind) return sendJson(res, 404, errorBody(protocol, 404, `No route for ${req.method} ${path}`));
    if (this.options.apiKey && !carriesKey(recorded.headers, this.options.apiKey)) {
      return sendJson(res, 401, errorBody(protocol, 401, 'Invalid API key.'));
    }
    const index = this.steps.findIndex((s) => (s.on ?? 'chat') === kind);
    const step = index >= 0 ? this.steps.splice(index, 1)[0] : undefined;
    if (!step && kind === 'models') return sendJson(res, 200, modelList(protocol, this.models));
    if (!step) return sendJson(res, 500, errorBody(protocol, 500, `The fake model server has no scripted step left for ${req.method} ${path}.`));

    const live = { open: true };
    res.on('close', () => { live.open = false; });
    if (step.firstByteDelayMs) await this.sleep(step.firstByteDelayMs);
    if (!live.open) return;
    if (step.status && step.status >= 400) return sendJson(res, step.status, step.json ?? errorBody(protocol, step.status, step.error ?? 'Scripted error.'));
    if (step.json !== undefined) return sendJson(res, step.status ?? 200, step.json);

    const body = recorded.body as Json | undefined;
    const chunks = step.sse ?? (protocol === 'openai'
      ? openAiEvents(step, String(body?.model ?? ''), (body?.stream_options as Json | undefined)?.include_usage === true, ++this.counter)
      : anthropicEvents(step, String(body?.model ?? ''), ++this.counter));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    // One pass more than there are writes, so that a drop or a stall can also come after the last one.
    for (let i = 0; i <= chunks.length; i++) {
      if (i > 0 && step.chunkDelayMs) await this.sleep(step.chunkDelayMs);
      if (!live.open) return;
      if (i === step.dropAfterChunks) { res.socket?.destroy(); return; }
      if (i === step.stallAfterChunks) return; // left open: the client's timeout, or close(), ends it
      if (i < chunks.length) res.write(chunks[i]);
    }
    res.end();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.timers.delete(timer); resolve(); }, ms);
      this.timers.add(timer);
    });
  }
}

// ── OpenAI's chat-completion chunks ──

function openAiEvents(step: FakeStep, model: string, includeUsage: boolean, n: number): string[] {
  const chunk = (delta: Json, finish: string | null = null) =>
    data({ id: `chatcmpl-fake-${n}`, object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [{ index: 0, delta, finish_reason: finish }] });
  const out = [chunk({ role: 'assistant', content: '' })];
  for (const t of step.thinking ?? []) out.push(chunk({ reasoning_content: t }));
  for (const t of step.text ?? []) out.push(chunk({ content: t }));
  for (const t of step.refusalText ?? []) out.push(chunk({ refusal: t }));
  for (const [index, call, i] of toolFragments(step)) {
    const fn = i === 0 ? { name: call.name, arguments: call.arguments[0] ?? '' } : { arguments: call.arguments[i] };
    out.push(chunk({ tool_calls: [{ index, ...(i === 0 ? { id: call.id, type: 'function' } : {}), function: fn }] }));
  }
  if (step.streamError) return [...out, data({ error: { message: step.streamError.message, type: step.streamError.type ?? 'server_error', code: step.streamError.code ?? null } })];
  const finish = step.finishReason ?? (step.contentFilter ? 'content_filter' : step.toolCalls?.length ? 'tool_calls' : 'stop');
  out.push(chunk({}, finish));
  if (step.usage && includeUsage) {
    const u = step.usage;
    out.push(data({
      id: `chatcmpl-fake-${n}`, object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [],
      usage: { prompt_tokens: u.inputTokens, completion_tokens: u.outputTokens, total_tokens: u.inputTokens + u.outputTokens, prompt_tokens_details: { cached_tokens: u.cachedInputTokens ?? 0 } },
    }));
  }
  out.push('data: [DONE]\n\n');
  return out;
}

/** [call index, call, fragment index] for every argument fragment, in streaming order. */
function toolFragments(step: FakeStep): Array<[number, FakeToolCall, number]> {
  const calls = step.toolCalls ?? [];
  const lists = calls.map((call, index) => Array.from({ length: Math.max(call.arguments.length, 1) }, (_, i) => [index, call, i] as [number, FakeToolCall, number]));
  if (!step.interleaveToolCalls) return lists.flat();
  const out: Array<[number, FakeToolCall, number]> = [];
  for (let i = 0; lists.some((l) => i < l.length); i++) for (const l of lists) if (i < l.length) out.push(l[i]);
  return out;
}

// ── Anthropic's message events ──

function anthropicEvents(step: FakeStep, model: string, n: number): string[] {
  const u = step.usage;
  const cached = u?.cachedInputTokens ?? 0;
  const created = u?.cacheCreationInputTokens ?? 0;
  const out = [event('message_start', {
    type: 'message_start',
    message: {
      id: `msg_fake_${n}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null,
      ...(u ? { usage: { input_tokens: u.inputTokens - cached - created, cache_creation_input_tokens: created, cache_read_input_tokens: cached, output_tokens: 1 } } : {}),
    },
  }), event('ping', { type: 'ping' })];
  let index = 0;
  const block = (start: Json, deltas: Json[]) => {
    out.push(event('content_block_start', { type: 'content_block_start', index, content_block: start }));
    for (const delta of deltas) out.push(event('content_block_delta', { type: 'content_block_delta', index, delta }));
    out.push(event('content_block_stop', { type: 'content_block_stop', index }));
    index++;
  };
  if (step.thinking?.length) block({ type: 'thinking', thinking: '' }, step.thinking.map((t) => ({ type: 'thinking_delta', thinking: t })));
  if (step.text?.length) block({ type: 'text', text: '' }, step.text.map((t) => ({ type: 'text_delta', text: t })));
  for (const call of step.toolCalls ?? []) {
    block({ type: 'tool_use', id: call.id, name: call.name, input: {} }, call.arguments.map((a) => ({ type: 'input_json_delta', partial_json: a })));
  }
  if (step.streamError) {
    return [...out, event('error', { type: 'error', error: { type: step.streamError.type ?? 'api_error', message: step.streamError.message } })];
  }
  const stop = step.finishReason ?? (step.contentFilter ? 'refusal' : step.toolCalls?.length ? 'tool_use' : 'end_turn');
  out.push(event('message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, ...(u ? { usage: { output_tokens: u.outputTokens } } : {}) }));
  out.push(event('message_stop', { type: 'message_stop' }));
  return out;
}

// ── Bodies, both protocols ──

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error',
  413: 'request_too_large', 429: 'rate_limit_error', 500: 'api_error', 529: 'overloaded_error',
};

function errorBody(protocol: Protocol, status: number, message: string): Json {
  if (protocol === 'anthropic') return { type: 'error', error: { type: ANTHROPIC_ERROR_TYPES[status] ?? 'api_error', message } };
  return { error: { message, type: status === 429 ? 'rate_limit_exceeded' : status < 500 ? 'invalid_request_error' : 'server_error', param: null, code: null } };
}

function modelList(protocol: Protocol, models: FakeModel[]): Json {
  if (protocol === 'anthropic') {
    return {
      data: models.map((m) => ({ type: 'model', id: m.id, display_name: m.id, created_at: '2025-01-01T00:00:00Z', ...(m.contextLength ? { max_input_tokens: m.contextLength } : {}) })),
      has_more: false, first_id: models[0]?.id ?? null, last_id: models.at(-1)?.id ?? null,
    };
  }
  return { object: 'list', data: models.map((m) => ({ id: m.id, object: 'model', created: 1_700_000_000, owned_by: 'fake', ...(m.contextLength ? { context_length: m.contextLength } : {}) })) };
}

function data(value: unknown): string { return `data: ${JSON.stringify(value)}\n\n`; }
function event(name: string, value: unknown): string { return `event: ${name}\ndata: ${JSON.stringify(value)}\n\n`; }

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function carriesKey(headers: Record<string, string>, key: string): boolean {
  return headers.authorization === `Bearer ${key}` || headers['x-api-key'] === key;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function record(req: http.IncomingMessage, text: string): RecordedFakeRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  let body: unknown;
  try { body = text ? JSON.parse(text) : undefined; } catch { body = undefined; }
  return { method: req.method ?? '', path: req.url ?? '/', headers, body, text };
}
