/**
 * A minimal OTLP/HTTP receiver on loopback, so Copilot's `otlp-http` exporters (which POST
 * OTLP/JSON: @opentelemetry/exporter-*-otlp-http, findings §2) can send their spans and logs to
 * Alfred instead of a file. JSON only: protobuf is refused with 415 and says what to set.
 *
 * What it guards against: only 127.0.0.1 is listened on; a Host other than a loopback name is
 * refused (a web page using DNS rebinding could otherwise post fake usage), and so is any content
 * type but application/json (a page's cross-origin "simple" POST cannot send that without a
 * preflight this server never grants); bodies are bounded, compressed ones after inflation too.
 * Answers follow the OTLP/HTTP spec: 200 `{"partialSuccess":{}}`, errors as a JSON Status; 400 and
 * 413 are not retried by exporters, and a handler's failure is a 500, not retried either (the
 * batch was received; sending it again would not help).
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export type OtlpSignal = 'traces' | 'logs' | 'metrics';

export interface OtlpReceiverOptions {
  /** Called with each parsed export body of the signals in `signals`; awaited before the answer. */
  onExport: (signal: OtlpSignal, body: unknown) => void | Promise<void>;
  /** Signals whose bodies are parsed and handed over; the others are acknowledged unread (default traces and logs). */
  signals?: readonly OtlpSignal[];
  /** Largest body accepted, after decompression (default 32 MiB). */
  maxBodyBytes?: number;
  /** Default 0: a free port. */
  port?: number;
  /** A handler's error (the exporter gets a 500). */
  onError?: (err: unknown) => void;
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`: the exporter's endpoint (it appends /v1/traces, /v1/logs, /v1/metrics). */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const PATHS: Record<string, OtlpSignal> = { '/v1/traces': 'traces', '/v1/logs': 'logs', '/v1/metrics': 'metrics' };
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const OK_BODY = '{"partialSuccess":{}}';
/** google.rpc.Code values for the Status body. */
const INVALID_ARGUMENT = 3;
const INTERNAL = 13;
const PROTOBUF_REFUSED = "Alfred's OTLP receiver accepts OTLP/HTTP JSON only (content-type: application/json), not protobuf: set the exporter's protocol to http/json (OTEL_EXPORTER_OTLP_PROTOCOL=http/json).";

class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

export function startOtlpReceiver(options: OtlpReceiverOptions): Promise<OtlpReceiver> {
  const maxBytes = options.maxBodyBytes ?? 32 << 20;
  const wanted = new Set<OtlpSignal>(options.signals ?? ['traces', 'logs']);
  const server = http.createServer((req, res) => {
    void handle(req, res, options, wanted, maxBytes);
  });
  // Loopback exporters send small batches quickly; a stalled client must not hold a socket for long.
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        close: () => new Promise<void>((done) => {
          server.close(() => done());
          server.closeAllConnections();
        }),
      });
    });
  });
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse, options: OtlpReceiverOptions, wanted: Set<OtlpSignal>, maxBytes: number): Promise<void> {
  try {
    const signal = checkRequest(req, maxBytes);
    const raw = await readBody(req, maxBytes);
    if (wanted.has(signal)) {
      const body = parseJson(inflate(raw, req.headers['content-encoding'], maxBytes));
      try {
        await options.onExport(signal, body);
      } catch (err) {
        options.onError?.(err);
        throw new HttpError(500, 'the export could not be processed');
      }
    }
    reply(res, 200, OK_BODY);
  } catch (err) {
    const status = err instanceof HttpError ? err.status : 500;
    const message = err instanceof HttpError ? err.message : 'internal error';
    reply(res, status, JSON.stringify({ code: status === 500 ? INTERNAL : INVALID_ARGUMENT, message }), status === 413);
  }
}

/** Method, path, host and content type, before a byte of the body is read. */
function checkRequest(req: http.IncomingMessage, maxBytes: number): OtlpSignal {
  const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
  if (!LOOPBACK_HOSTS.has(host)) throw new HttpError(403, `Host "${req.headers.host ?? ''}" is not a loopback name`);
  const signal = PATHS[(req.url ?? '').split('?')[0]!];
  if (!signal) throw new HttpError(404, `no OTLP endpoint at ${req.url ?? ''}; use /v1/traces, /v1/logs or /v1/metrics`);
  if (req.method !== 'POST') throw new HttpError(405, 'OTLP exports are POSTed');
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-protobuf' || type === 'application/protobuf') throw new HttpError(415, PROTOBUF_REFUSED);
  if (type !== 'application/json') throw new HttpError(415, `content-type "${type}" is not application/json. ${PROTOBUF_REFUSED}`);
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity' && encoding !== 'gzip') throw new HttpError(415, `content-encoding "${encoding}" is not supported (identity or gzip)`);
  const length = Number(req.headers['content-length'] ?? NaN);
  if (length > maxBytes) throw new HttpError(413, `the body exceeds ${maxBytes} bytes`);
  return signal;
}

function readBody(req: http.IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.removeAllListeners('data');
        req.resume(); // drain what is in flight; the answer closes the connection
        reject(new HttpError(413, `the body exceeds ${maxBytes} bytes`));
      } else {
        chunks.push(chunk);
      }
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function inflate(raw: Buffer, encoding: string | undefined, maxBytes: number): Buffer {
  if ((encoding ?? 'identity').toLowerCase() !== 'gzip') return raw;
  try {
    return gunzipSync(raw, { maxOutputLength: maxBytes });
  } catch (err) {
    const tooBig = (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || /maxOutputLength|Cannot create a Buffer larger/i.test((err as Error).message);
    throw tooBig ? new HttpError(413, `the body exceeds ${maxBytes} bytes once inflated`) : new HttpError(400, 'the gzip body is corrupt');
  }
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new HttpError(400, 'the body is not JSON');
  }
}

/** `close`: after a 413 the rest of the body is not read, so the connection cannot be reused. */
function reply(res: http.ServerResponse, status: number, body: string, close = false): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(close ? { connection: 'close' } : {}) });
  res.end(body);
}
