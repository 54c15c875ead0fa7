/**
 * The HTTP exchange both protocol clients share: Node's fetch under one time limit per wait (for the
 * first byte, then for each chunk of a stream), the caller's abort, and every failure sorted into a
 * ProviderError kind with a message that never carries the key or the request's headers.
 */
import { ProviderError } from './types';

/** What a protocol client needs to reach an endpoint. */
export interface EndpointConfig {
  /** The API's base URL, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey?: string;
  /** Longest wait for the first byte, and then for each chunk of a stream, in ms (default 60,000). */
  timeoutMs?: number;
  /** Extra headers (e.g. OpenRouter's `HTTP-Referer`). */
  headers?: Record<string, string>;
}

export const DEFAULT_TIMEOUT_MS = 60_000;

/** A model an endpoint lists, with its context window when the endpoint tells it. */
export interface ListedModel {
  id: string;
  contextLength?: number;
}

export interface HttpCall {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** Strings to blank out of any error message: the key, credential-like extra headers. */
  secrets: string[];
  timeoutMs: number;
  signal: AbortSignal;
}

/** `base` + `path` with exactly one slash between them. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** The host (and port) of a URL, for messages: never its path, query or credentials. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host || 'the provider';
  } catch {
    return 'the provider';
  }
}

/** A ProviderError raised while reading a stream, with the secrets blanked out of its message. */
export function withoutSecrets(e: unknown, secrets: string[]): unknown {
  if (!(e instanceof ProviderError)) return e;
  const message = redact(e.message, secrets);
  return message === e.message ? e : new ProviderError(e.kind, message, e.status);
}

function redact(message: string, secrets: string[]): string {
  return secrets.reduce((m, secret) => m.split(secret).join('[redacted]'), message);
}

/** The values an error message must never show: the key and any header that looks like a credential. */
export function secretsOf(config: EndpointConfig): string[] {
  const fromHeaders = Object.entries(config.headers ?? {})
    .filter(([name]) => /auth|key|token|secret|cookie/i.test(name))
    .map(([, value]) => value);
  return [config.apiKey ?? '', ...fromHeaders].filter((s) => s.length > 0);
}

/** The response body of a successful call, chunk by chunk; throws ProviderError. */
export async function* streamBody(call: HttpCall): AsyncGenerator<Uint8Array> {
  const exchange = new Exchange(call);
  try {
    const response = await exchange.open();
    if (/^application\/json/i.test(response.headers.get('content-type') ?? '')) {
      // A server that ignores `stream: true` or reports an error with status 200 answers in plain JSON.
      const detail = errorDetail(await exchange.wait(() => response.text()));
      throw new ProviderError('protocol', `${exchange.host} answered with JSON instead of an event stream${detail ? `: ${detail}` : ''}.`);
    }
    if (!response.body) throw new ProviderError('protocol', `${exchange.host} answered with no body.`);
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await exchange.wait(() => reader.read());
      if (done) return;
      exchange.received = true;
      yield value;
    }
  } catch (e) {
    throw exchange.failure(e);
  } finally {
    // Also drops the connection when the consumer stopped early (an answer complete before the body ended).
    exchange.dispose();
  }
}

/** The JSON body of a successful call; throws ProviderError. */
export async function fetchJson(call: HttpCall): Promise<unknown> {
  const exchange = new Exchange(call);
  try {
    const response = await exchange.open();
    const text = await exchange.wait(() => response.text());
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ProviderError('protocol', `${exchange.host} answered with something other than JSON.`);
    }
  } catch (e) {
    throw exchange.failure(e);
  } finally {
    exchange.dispose();
  }
}

/** One call's abort controller: stopped by the caller's signal or by the time limit of the current wait. */
class Exchange {
  readonly host: string;
  /** Connected once the status line came; `received` once the body's first bytes did. */
  private connected = false;
  received = false;
  private readonly controller = new AbortController();
  private why: 'timeout' | 'cancelled' | undefined;
  private readonly onAbort = () => this.stop('cancelled');

  constructor(private readonly call: HttpCall) {
    this.host = hostOf(call.url);
    call.signal.addEventListener('abort', this.onAbort, { once: true });
  }

  async open(): Promise<Response> {
    try { new URL(this.call.url); } catch { throw new ProviderError('connection', 'The provider\'s base URL is not a valid URL.'); }
    const { method, url, headers, body } = this.call;
    const response = await this.wait(() => fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: this.controller.signal,
    }));
    this.connected = true;
    if (!response.ok) throw await this.httpFailure(response);
    return response;
  }

  /** Awaits one step, stopping the call when it takes longer than the time limit. */
  async wait<T>(step: () => Promise<T>): Promise<T> {
    if (this.call.signal.aborted) this.stop('cancelled');
    if (this.why) throw new Error(this.why);
    const timer = setTimeout(() => this.stop('timeout'), this.call.timeoutMs);
    try {
      return await step();
    } finally {
      clearTimeout(timer);
    }
  }

  /** Any error of the call, as the ProviderError the caller sees. */
  failure(e: unknown): ProviderError {
    // The caller's abort wins over whatever the abort caused (an aborted read, an unread error body).
    if (this.why === 'cancelled' || this.call.signal.aborted) return new ProviderError('cancelled', 'The request was cancelled.');
    // A status that came back says more than a body that then timed out.
    if (e instanceof ProviderError) return new ProviderError(e.kind, this.redact(e.message), e.status);
    const seconds = `${this.call.timeoutMs / 1000} s`;
    if (this.why === 'timeout') {
      // Headers sent at once and a body that waits (a model still loading) is no answer yet either.
      return new ProviderError('timeout', !this.received
        ? `No answer from ${this.host} within ${seconds}.`
        : `The answer from ${this.host} stalled: no data for ${seconds}.`);
    }
    const { code, detail } = networkCause(e);
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      return new ProviderError('timeout', `${this.host} stopped answering (${code}).`);
    }
    const why = detail ? `${code}: ${detail}` : code;
    return new ProviderError('connection', this.redact(!this.connected
      ? `Could not connect to ${this.host} (${why}).`
      : `The connection to ${this.host} broke during the answer (${why}).`));
  }

  dispose(): void {
    this.call.signal.removeEventListener('abort', this.onAbort);
    this.controller.abort();
  }

  private stop(why: 'timeout' | 'cancelled'): void {
    this.why ??= why;
    this.controller.abort();
  }

  private async httpFailure(response: Response): Promise<ProviderError> {
    let text = '';
    try { text = await this.wait(() => response.text()); } catch { /* the status alone still says what happened */ }
    const detail = errorDetail(text) || response.statusText || 'no message';
    const kind = response.status === 401 || response.status === 403 ? 'auth' : 'http';
    return new ProviderError(kind, this.redact(`HTTP ${response.status} from ${this.host}: ${detail}`), response.status);
  }

  private redact(message: string): string {
    return redact(message, this.call.secrets);
  }
}

/**
 * undici's failures: `TypeError('fetch failed' | 'terminated')` with the system or socket error as its
 * cause. Only a cause with a code is quoted: other messages can hold the URL, credentials included.
 */
function networkCause(e: unknown): { code: string; detail: string } {
  const cause = (e as { cause?: unknown })?.cause ?? e;
  // The Fetch standard's blocked ports (1, 6000, 10080, …): refused before any connection, without a code.
  if ((cause as { message?: unknown })?.message === 'bad port') {
    return { code: 'bad port', detail: 'Node refuses to connect to this port, as browsers do (a port reserved for other protocols): serve the endpoint on another port' };
  }
  const code = (cause as { code?: unknown })?.code;
  if (typeof code === 'string') {
    const message = (cause as { message?: unknown }).message;
    return { code, detail: typeof message === 'string' ? message : '' };
  }
  return { code: e instanceof Error ? e.name : 'unknown error', detail: '' };
}

/** The human part of an error body: OpenAI's and Anthropic's `error.message`, Ollama's `error`, FastAPI's `detail`, or short plain text. */
export function errorDetail(text: string): string {
  let found: unknown;
  try {
    const body = JSON.parse(text) as Record<string, unknown> | null;
    const error = body?.error as Record<string, unknown> | string | undefined;
    found = typeof error === 'string' ? error : error?.message ?? body?.message ?? body?.detail;
  } catch {
    found = text.replace(/<[^>]*>/g, ' '); // a proxy's HTML error page, as text
  }
  const detail = typeof found === 'string' ? found.replace(/\s+/g, ' ').trim() : '';
  return detail.length > 500 ? `${detail.slice(0, 500)}…` : detail;
}
