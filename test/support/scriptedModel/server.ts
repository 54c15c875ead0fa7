/**
 * A scripted model endpoint on 127.0.0.1 for the real agent clients (Claude Code, Codex, the Copilot
 * CLI, Gemini CLI): it plays one session's script of tool calls, answering each request in the
 * protocol it came in (Anthropic messages, OpenAI chat completions and Responses, Gemini
 * generateContent), over SSE, with exact token counts. Every request is recorded.
 *
 * Which turn a request gets is read from the conversation it carries, not from a counter: the n-th
 * tool call the model already made is in the history, so the request is answered with call n+1 (or
 * the closing text when the script is played). Side requests a client makes on its own (titles,
 * command-prefix checks, Gemini's next-speaker check, token counts, model listings) carry no tools:
 * they get a short text and leave the script where it is.
 *
 *   const model = await startScriptedModel([{ name: 'Bash', args: { command: 'ls' } }]);
 *   // ANTHROPIC_BASE_URL=model.url claude -p … ; then model.requests, model.toolResults()
 *   await model.close();
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicReply, anthropicToolResults, anthropicTurn } from './anthropic';
import { geminiReply, geminiToolResults, geminiTurn } from './gemini';
import { chatReply, chatToolResults, chatTurn, responsesReply, responsesToolResults, responsesTurn } from './openai';

/** One tool call the model makes. `freeform`: a Responses custom tool (Codex's apply_patch), `args.input` is its text. */
export interface ScriptedCall { name: string; args: Record<string, unknown>; freeform?: boolean }

/** Token counts of one answer, in Alfred's terms (each protocol gets them in its own shape). */
export interface ScriptedUsage { inputTokens: number; outputTokens: number; cachedInputTokens?: number }

/** What one request is answered with. */
export interface Reply { calls: Array<ScriptedCall & { id: string }>; text: string; usage: ScriptedUsage; model: string; id: string }

export interface RecordedRequest { method: string; path: string; headers: Record<string, string>; body: unknown }

/** A tool's output as the model saw it in a later request. */
export interface SeenToolResult { callId: string; output: string }

export type Protocol = 'anthropic' | 'chat' | 'responses' | 'gemini';

export interface ScriptedModel {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** The main requests (those offering tools), oldest first, with the protocol each used. */
  readonly turns: Array<{ protocol: Protocol; body: Record<string, unknown> }>;
  /** The tool outputs the model was sent, from the last main request (which carries the whole history). */
  toolResults(): SeenToolResult[];
  /** The tool definitions the client offered in its last main request. */
  toolsOffered(): unknown[];
  close(): Promise<void>;
}

export interface ScriptOptions {
  /** Usage of every answer (default 100 in, 10 out). */
  usage?: ScriptedUsage;
  /** The closing text once every call is played. */
  finalText?: string;
  /** The id the calls get: `${prefix}${n}` (default `call_`). */
  callIdPrefix?: string;
  /**
   * Called once per turn, before it is answered, with the number of calls already made (so call
   * `made - 1` has finished, hooks and all, and call `made` has not started): a test looks at the
   * disk and the ledger between two calls here.
   */
  onTurn?: (made: number) => Promise<void> | void;
}

type Json = Record<string, unknown>;

export async function startScriptedModel(calls: ScriptedCall[], options: ScriptOptions = {}): Promise<ScriptedModel> {
  const requests: RecordedRequest[] = [];
  const turns: Array<{ protocol: Protocol; body: Json }> = [];
  const usage = options.usage ?? { inputTokens: 100, outputTokens: 10 };
  // Ids unique across endpoints: a client (and Alfred's ledger) may tell requests apart by them.
  let counter = Math.floor(Math.random() * 1e9) * 1000;
  let lastTurn = -1;
  const server = http.createServer((req, res) => {
    void readBody(req).then(async (text) => {
      let body: Json = {};
      try { body = text ? JSON.parse(text) as Json : {}; } catch { /* kept as text in the record */ }
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));
      requests.push({ method: req.method ?? '', path: req.url ?? '/', headers, body });
      const url = new URL(req.url ?? '/', 'http://x');
      const p = url.pathname;
      if (req.method === 'GET' && /\/models$/.test(p)) return sendJson(res, 200, modelList(p));
      if (p.endsWith('/messages/count_tokens')) return sendJson(res, 200, { input_tokens: usage.inputTokens });
      const protocol: Protocol | undefined = p.endsWith('/messages') ? 'anthropic'
        : p.endsWith('/chat/completions') ? 'chat'
          : p.endsWith('/responses') ? 'responses'
            : /:(stream)?[gG]enerateContent$/.test(p) ? 'gemini' : undefined;
      if (!protocol || req.method !== 'POST') return sendJson(res, 404, { error: { message: `No route for ${req.method} ${p}` } });
      const model = String(body.model ?? /models\/([^:]+):/.exec(p)?.[1] ?? 'model');
      const offersTools = Array.isArray(body.tools) && body.tools.length > 0;
      const id = `${++counter}`;
      let reply: Reply;
      if (offersTools) {
        turns.push({ protocol, body });
        const made = TURN[protocol](body);
        if (made > lastTurn) {
          lastTurn = made;
          await options.onTurn?.(made);
        }
        const next = calls[made];
        const callId = `${options.callIdPrefix ?? 'call_'}${made + 1}`;
        reply = { calls: next ? [{ ...next, id: callId }] : [], text: next ? '' : options.finalText ?? 'Done.', usage, model, id };
      } else {
        reply = { calls: [], text: sideText(protocol, body), usage, model, id };
      }
      const stream = protocol === 'gemini' ? url.searchParams.get('alt') === 'sse' || p.endsWith(':streamGenerateContent') : body.stream === true;
      const answer = REPLY[protocol](reply, stream);
      if (!stream) return sendJson(res, 200, answer as Json);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const chunk of answer as string[]) res.write(chunk);
      res.end();
    }).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    turns,
    toolResults() {
      const last = turns.at(-1);
      return last ? RESULTS[last.protocol](last.body) : [];
    },
    toolsOffered() { return (turns.at(-1)?.body.tools as unknown[] | undefined) ?? []; },
    close: () => new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
}

/** How many tool calls the model already made, read from the conversation a request carries. */
const TURN: Record<Protocol, (body: Json) => number> = { anthropic: anthropicTurn, chat: chatTurn, responses: responsesTurn, gemini: geminiTurn };
const REPLY: Record<Protocol, (reply: Reply, stream: boolean) => string[] | Json> = { anthropic: anthropicReply, chat: chatReply, responses: responsesReply, gemini: geminiReply };
const RESULTS: Record<Protocol, (body: Json) => SeenToolResult[]> = { anthropic: anthropicToolResults, chat: chatToolResults, responses: responsesToolResults, gemini: geminiToolResults };

/**
 * A side request's answer. Gemini CLI asks, with a JSON schema, whether the model or the user speaks
 * next: the user does, so the session ends. Others get a short text.
 */
function sideText(protocol: Protocol, body: Json): string {
  const config = body.generationConfig as Json | undefined;
  if (protocol === 'gemini' && config?.responseMimeType === 'application/json') {
    return JSON.stringify({ reasoning: 'The task is done.', next_speaker: 'user' });
  }
  return 'none';
}

function modelList(p: string): Json {
  if (p.includes('/v1beta/')) return { models: [{ name: 'models/gemini-2.5-flash', supportedGenerationMethods: ['generateContent'] }] };
  return { object: 'list', data: [{ id: 'scripted-model', object: 'model', created: 1_700_000_000, owned_by: 'scripted' }] };
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

export function sse(value: unknown, name?: string): string {
  return `${name ? `event: ${name}\n` : ''}data: ${JSON.stringify(value)}\n\n`;
}
