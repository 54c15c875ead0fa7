/**
 * The OpenAI-compatible client against a real streaming server on loopback: the wire request it sends,
 * the exact parts it makes of the stream (text, thinking, tool calls, usage, refusals), and each way a
 * request fails, sorted into ProviderError kinds with messages that never carry the key.
 */
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { after, before, beforeEach, describe, it } from 'node:test';
import { listOpenAiModels, type OpenAiConfig, streamOpenAiChat } from '../../../../src/core/models/providers/openaiChat';
import { type ChatRequest, ProviderError } from '../../../../src/core/models/providers/types';
import { type FakeModelServer, startFakeModelServer } from '../../../support/fakeModelServer';
import { drain } from './drain';

const KEY = 'sk-test-4f9a0c1e7b2d';
const HELLO: ChatRequest = { model: 'gpt-test', messages: [{ role: 'user', parts: [{ type: 'text', text: 'Hello' }] }] };

describe('OpenAI-compatible chat completions', () => {
  let server: FakeModelServer;
  let config: OpenAiConfig;
  const run = (request: ChatRequest = HELLO, signal = new AbortController().signal, overrides: Partial<OpenAiConfig> = {}) =>
    drain(streamOpenAiChat({ ...config, ...overrides }, request, signal));

  before(async () => {
    server = await startFakeModelServer();
    config = { baseUrl: `${server.url}/v1`, apiKey: KEY, timeoutMs: 5_000 };
  });
  beforeEach(() => { server.requests.length = 0; });
  after(() => server.close());

  it('streams a text answer as text parts, then done, and sends the key only as a bearer token', async () => {
    server.script([{ text: ['Hel', 'lo', '!'] }]);
    const { parts, error } = await run();
    assert.equal(error, undefined);
    assert.deepEqual(parts, [
      { type: 'text', text: 'Hel' }, { type: 'text', text: 'lo' }, { type: 'text', text: '!' },
      { type: 'done', finishReason: 'stop' },
    ]);
    const [req] = server.requests;
    assert.equal(req.method, 'POST');
    assert.equal(req.path, '/v1/chat/completions');
    assert.equal(req.headers.authorization, `Bearer ${KEY}`);
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers.accept, 'text/event-stream');
    assert.deepEqual(req.body, {
      model: 'gpt-test', messages: [{ role: 'user', content: 'Hello' }], stream: true, stream_options: { include_usage: true },
    });
    const elsewhere = JSON.stringify({ ...req, headers: { ...req.headers, authorization: undefined } });
    assert.equal(elsewhere.includes(KEY), false, 'the key is in no other header and not in the body');
  });

  it('sends no authorization header when the endpoint has no key, and accepts a base URL with a trailing slash', async () => {
    server.script([{ text: ['ok'] }]);
    const { parts } = await run(HELLO, undefined, { apiKey: undefined, baseUrl: `${server.url}/v1/` });
    assert.deepEqual(parts, [{ type: 'text', text: 'ok' }, { type: 'done', finishReason: 'stop' }]);
    assert.equal(server.requests[0].path, '/v1/chat/completions');
    assert.equal(server.requests[0].headers.authorization, undefined);
  });

  it('converts the neutral conversation: system, text and image, tool calls and their results, tools, required mode, max tokens', async () => {
    server.script([{ text: ['done'] }]);
    const request: ChatRequest = {
      model: 'gpt-vision',
      messages: [
        { role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
        { role: 'user', parts: [{ type: 'text', text: 'What is this?' }, { type: 'image', mimeType: 'image/png', data: Uint8Array.of(137, 80, 78, 71) }] },
        { role: 'assistant', parts: [{ type: 'text', text: 'Let me look.' }, { type: 'toolCall', callId: 'call_1', name: 'ctx_read', input: { path: 'a.ts' } }] },
        { role: 'assistant', parts: [{ type: 'toolCall', callId: 'call_2', name: 'ctx_tree', input: {} }] },
        { role: 'user', parts: [{ type: 'toolResult', callId: 'call_1', content: 'export {}' }, { type: 'toolResult', callId: 'call_2', content: 'a.ts', isError: true }, { type: 'text', text: 'Go on.' }] },
      ],
      tools: [
        { name: 'ctx_read', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
        { name: 'ctx_tree', description: 'List files' },
      ],
      toolMode: 'required',
      maxOutputTokens: 256,
    };
    await run(request);
    assert.deepEqual(server.requests[0].body, {
      model: 'gpt-vision',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } }] },
        { role: 'assistant', content: 'Let me look.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'ctx_read', arguments: '{"path":"a.ts"}' } }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'ctx_tree', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'export {}' },
        { role: 'tool', tool_call_id: 'call_2', content: 'a.ts' },
        { role: 'user', content: 'Go on.' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      tools: [
        { type: 'function', function: { name: 'ctx_read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } },
        { type: 'function', function: { name: 'ctx_tree', description: 'List files', parameters: { type: 'object', properties: {} } } },
      ],
      tool_choice: 'required',
      max_tokens: 256,
    });
  });

  it('caps the answer with max_completion_tokens when told to (OpenAI\'s own API)', async () => {
    server.script([{ text: ['ok'] }]);
    await run({ ...HELLO, maxOutputTokens: 64 }, undefined, { maxTokensField: 'max_completion_tokens' });
    const body = server.requests[0].body as Record<string, unknown>;
    assert.equal(body.max_completion_tokens, 64);
    assert.equal('max_tokens' in body, false);
  });

  it('assembles two tool calls whose fragments arrive interleaved by index, one complete part each', async () => {
    server.script([{
      text: ['Reading both.'],
      toolCalls: [
        { id: 'call_a', name: 'ctx_read', arguments: ['{"pa', 'th": "src/', 'a.ts"}'] },
        { id: 'call_b', name: 'ctx_search', arguments: ['{"query":', ' "TODO", "maxResults": 5}'] },
      ],
      interleaveToolCalls: true,
    }]);
    const { parts, error } = await run();
    assert.equal(error, undefined);
    assert.deepEqual(parts, [
      { type: 'text', text: 'Reading both.' },
      { type: 'toolCall', callId: 'call_a', name: 'ctx_read', input: { path: 'src/a.ts' } },
      { type: 'toolCall', callId: 'call_b', name: 'ctx_search', input: { query: 'TODO', maxResults: 5 } },
      { type: 'done', finishReason: 'tool_calls' },
    ]);
  });

  it('reports a tool call with arguments that are not JSON as a protocol error naming the tool', async () => {
    server.script([{ toolCalls: [{ id: 'call_x', name: 'ctx_edit', arguments: ['{"path": "a.ts", "newStr'] }] }]);
    const { parts, error } = await run();
    assert.deepEqual(parts, []);
    assert.equal(error?.kind, 'protocol');
    assert.equal(error?.message, 'The model called the tool "ctx_edit" with arguments that are not valid JSON.');
  });

  it('gives the usage of the last chunk as one usage part, cached tokens included in the input', async () => {
    server.script([{ text: ['Hi'], usage: { inputTokens: 1200, outputTokens: 34, cachedInputTokens: 1024 } }]);
    const { parts } = await run();
    assert.deepEqual(parts, [
      { type: 'text', text: 'Hi' },
      { type: 'usage', usage: { inputTokens: 1200, outputTokens: 34, cachedInputTokens: 1024, cacheCreationInputTokens: 0 } },
      { type: 'done', finishReason: 'stop' },
    ]);
  });

  it('reads reasoning deltas as thinking, both field names', async () => {
    server.script([{ thinking: ['Let me ', 'think.'], text: ['42'] }, {
      sse: [
        'data: {"choices":[{"index":0,"delta":{"reasoning":"Hmm."},"finish_reason":null}]}\n\n',
        'data: {"choices":[{"index":0,"delta":{"content":"Yes"},"finish_reason":"stop"}]}\n\n',
        'data: [DONE]\n\n',
      ],
    }]);
    assert.deepEqual((await run()).parts, [
      { type: 'thinking', text: 'Let me ' }, { type: 'thinking', text: 'think.' }, { type: 'text', text: '42' }, { type: 'done', finishReason: 'stop' },
    ]);
    assert.deepEqual((await run()).parts, [{ type: 'thinking', text: 'Hmm.' }, { type: 'text', text: 'Yes' }, { type: 'done', finishReason: 'stop' }]);
  });

  it('turns a content-filter stop and a refusal delta into one refusal part', async () => {
    server.script([{ text: ['Sure, here'], contentFilter: true }, { refusalText: ['I can\'t help', ' with that.'] }]);
    assert.deepEqual((await run()).parts, [
      { type: 'text', text: 'Sure, here' },
      { type: 'refusal', message: 'The provider\'s content filter stopped the answer.' },
      { type: 'done', finishReason: 'content_filter' },
    ]);
    assert.deepEqual((await run()).parts, [
      { type: 'refusal', message: 'I can\'t help with that.' },
      { type: 'done', finishReason: 'stop' },
    ]);
  });

  it('fails with HTTP 429: kind http, the status, the body\'s message', async () => {
    server.script([{ status: 429, error: 'Rate limit reached for gpt-test on requests per min.' }]);
    const { parts, error } = await run();
    assert.deepEqual(parts, []);
    assert.ok(error instanceof ProviderError);
    assert.equal(error.kind, 'http');
    assert.equal(error.status, 429);
    assert.equal(error.message, `HTTP 429 from 127.0.0.1:${server.port}: Rate limit reached for gpt-test on requests per min.`);
  });

  it('fails with HTTP 401 as auth, and the key appears nowhere in the error, even when the body echoes it', async () => {
    server.script([{ status: 401, error: `Incorrect API key provided: ${KEY}. You can find your API key at your account page.` }]);
    const { error } = await run();
    assert.ok(error instanceof ProviderError);
    assert.equal(error.kind, 'auth');
    assert.equal(error.status, 401);
    assert.equal(error.message, `HTTP 401 from 127.0.0.1:${server.port}: Incorrect API key provided: [redacted]. You can find your API key at your account page.`);
    for (const view of [error.message, error.stack ?? '', inspect(error, { depth: 10 }), JSON.stringify(error)]) {
      assert.equal(view.includes(KEY), false);
    }
  });

  it('fails with connection when nothing listens', async () => {
    const gone = await startFakeModelServer();
    const port = gone.port;
    await gone.close();
    const { error } = await run(HELLO, undefined, { baseUrl: `http://127.0.0.1:${port}/v1` });
    assert.equal(error?.kind, 'connection');
    assert.equal(error?.status, undefined);
    assert.equal(error?.message, `Could not connect to 127.0.0.1:${port} (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${port}).`);
  });

  it('a port Node refuses (the Fetch standard\'s blocked ports) is said as such, not as a plain connection failure', async () => {
    for (const port of [1, 6000, 10080]) {
      const { error } = await run(HELLO, undefined, { baseUrl: `http://127.0.0.1:${port}/v1` });
      assert.equal(error?.kind, 'connection');
      assert.equal(error?.message, `Could not connect to 127.0.0.1:${port} (bad port: Node refuses to connect to this port, as browsers do (a port reserved for other protocols): serve the endpoint on another port).`);
    }
  });

  it('fails with connection while the server is stopped, and runs again once it is back', async () => {
    server.script([{ text: ['before'] }]);
    await run();
    await server.stop();
    try {
      const { error } = await run();
      assert.equal(error?.kind, 'connection');
      // A kept-alive socket from the request before may be tried first and found closed by the server.
      const port = server.port;
      assert.match(error?.message ?? '', new RegExp(`^Could not connect to 127\\.0\\.0\\.1:${port} \\((ECONNREFUSED: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}|UND_ERR_SOCKET: other side closed)\\)\\.$`));
    } finally {
      await server.start();
    }
    server.script([{ text: ['back'] }]);
    assert.deepEqual((await run()).parts, [{ type: 'text', text: 'back' }, { type: 'done', finishReason: 'stop' }]);
  });

  it('times out when the first byte does not come within timeoutMs', async () => {
    server.script([{ firstByteDelayMs: 3_000, text: ['late'] }]);
    const started = Date.now();
    const { parts, error } = await run(HELLO, undefined, { timeoutMs: 200 });
    assert.deepEqual(parts, []);
    assert.equal(error?.kind, 'timeout');
    assert.equal(error?.message, `No answer from 127.0.0.1:${server.port} within 0.2 s.`);
    assert.ok(Date.now() - started < 2_000, 'gave up at the time limit, not when the server answered');
  });

  it('times out when the status line comes at once but no byte of the answer follows', async () => {
    server.script([{ text: ['late'], stallAfterChunks: 0 }]);
    const { parts, error } = await run(HELLO, undefined, { timeoutMs: 200 });
    assert.deepEqual(parts, []);
    assert.equal(error?.kind, 'timeout');
    assert.equal(error?.message, `No answer from 127.0.0.1:${server.port} within 0.2 s.`);
  });

  it('times out when the stream stalls for timeoutMs, after the parts that arrived', async () => {
    // Writes: the role chunk, "Hel", then nothing.
    server.script([{ text: ['Hel', 'lo'], stallAfterChunks: 2 }]);
    const { parts, error } = await run(HELLO, undefined, { timeoutMs: 300 });
    assert.deepEqual(parts, [{ type: 'text', text: 'Hel' }]);
    assert.equal(error?.kind, 'timeout');
    assert.equal(error?.message, `The answer from 127.0.0.1:${server.port} stalled: no data for 0.3 s.`);
  });

  it('a slow but steady stream does not time out: the limit is per wait', async () => {
    server.script([{ text: ['a', 'b', 'c', 'd'], chunkDelayMs: 150 }]);
    const { parts, error } = await run(HELLO, undefined, { timeoutMs: 400 });
    assert.equal(error, undefined);
    assert.equal(parts.length, 5);
  });

  it('ends with cancelled when the caller aborts mid-stream, or before the request', async () => {
    server.script([{ text: ['one', 'two', 'three'], chunkDelayMs: 300 }]);
    const controller = new AbortController();
    const { parts, error } = await drain(streamOpenAiChat(config, HELLO, controller.signal), () => controller.abort());
    assert.deepEqual(parts, [{ type: 'text', text: 'one' }]);
    assert.equal(error?.kind, 'cancelled');
    assert.equal(error?.message, 'The request was cancelled.');

    const before = server.requests.length;
    const { error: early } = await run(HELLO, AbortSignal.abort());
    assert.equal(early?.kind, 'cancelled');
    assert.equal(server.requests.length, before, 'an aborted request is never sent');
  });

  it('a connection dropped mid-stream is a connection failure, after the parts that arrived', async () => {
    // The socket is destroyed inside the chunked body: undici reports `terminated`, caused by the socket
    // closing (UND_ERR_SOCKET). It is the transport that failed, not the protocol: failover counts it as
    // a refused connection would be counted.
    server.script([{ text: ['Hel', 'lo'], dropAfterChunks: 2, chunkDelayMs: 100 }]);
    const { parts, error } = await run();
    assert.deepEqual(parts, [{ type: 'text', text: 'Hel' }]);
    assert.equal(error?.kind, 'connection');
    assert.equal(error?.message, `The connection to 127.0.0.1:${server.port} broke during the answer (UND_ERR_SOCKET: other side closed).`);
  });

  it('a stream that ends cleanly but unfinished (no finish reason, no [DONE]) is a protocol failure', async () => {
    server.script([{ sse: ['data: {"choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}\n\n'] }]);
    const { parts, error } = await run();
    assert.deepEqual(parts, [{ type: 'text', text: 'Hel' }]);
    assert.equal(error?.kind, 'protocol');
    assert.equal(error?.message, `The stream from 127.0.0.1:${server.port} ended before the answer was complete.`);
  });

  it('accepts a stream that ends after its finish reason without [DONE], as some servers send it', async () => {
    server.script([{ sse: ['data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\n'] }]);
    assert.deepEqual((await run()).parts, [{ type: 'text', text: 'ok' }, { type: 'done', finishReason: 'stop' }]);
  });

  it('an error event inside the stream fails with its code and message', async () => {
    server.script([{ text: ['Par'], streamError: { message: 'Provider returned error', code: 502 } }]);
    const { parts, error } = await run();
    assert.deepEqual(parts, [{ type: 'text', text: 'Par' }]);
    assert.equal(error?.kind, 'http');
    assert.equal(error?.status, 502);
    assert.equal(error?.message, 'The stream reported an error (502): Provider returned error');
  });

  it('a 200 answer in plain JSON instead of a stream is a protocol failure with its message', async () => {
    server.script([{ json: { error: { message: 'model "nope" not found' } } }]);
    const { error } = await run();
    assert.equal(error?.kind, 'protocol');
    assert.equal(error?.message, `127.0.0.1:${server.port} answered with JSON instead of an event stream: model "nope" not found.`);
  });

  describe('model listing', () => {
    it('lists OpenAI\'s shape from GET /models, with the key', async () => {
      server.models = [{ id: 'gpt-test' }, { id: 'gpt-big', contextLength: 128_000 }];
      const models = await listOpenAiModels(config, new AbortController().signal);
      assert.deepEqual(models, [{ id: 'gpt-test' }, { id: 'gpt-big', contextLength: 128_000 }]);
      assert.deepEqual([server.requests[0].method, server.requests[0].path, server.requests[0].headers.authorization], ['GET', '/v1/models', `Bearer ${KEY}`]);
    });

    it('reads Ollama\'s, LM Studio\'s, llama.cpp\'s and vLLM\'s shapes', async () => {
      server.script([
        { on: 'models', json: { models: [{ name: 'llama3.2:3b', model: 'llama3.2:3b', size: 2019393189 }, { name: 'qwen3:8b' }] } },
        { on: 'models', json: { object: 'list', data: [{ id: 'qwen2.5-7b-instruct', object: 'model', max_context_length: 32_768 }] } },
        { on: 'models', json: { object: 'list', data: [{ id: 'gemma-3-4b.gguf', object: 'model', meta: { n_ctx_train: 131_072, n_params: 3_880_000_000 } }] } },
        { on: 'models', json: { object: 'list', data: [{ id: 'meta-llama/Llama-3.1-8B-Instruct', object: 'model', max_model_len: 16_384 }] } },
      ]);
      const list = () => listOpenAiModels(config, new AbortController().signal);
      assert.deepEqual(await list(), [{ id: 'llama3.2:3b' }, { id: 'qwen3:8b' }]);
      assert.deepEqual(await list(), [{ id: 'qwen2.5-7b-instruct', contextLength: 32_768 }]);
      assert.deepEqual(await list(), [{ id: 'gemma-3-4b.gguf', contextLength: 131_072 }]);
      assert.deepEqual(await list(), [{ id: 'meta-llama/Llama-3.1-8B-Instruct', contextLength: 16_384 }]);
    });

    it('fails like a chat request: 401 as auth, a body that is no list as protocol', async () => {
      server.script([{ on: 'models', status: 401, error: 'Invalid token' }, { on: 'models', json: { ok: true } }]);
      await assert.rejects(listOpenAiModels(config, new AbortController().signal),
        new ProviderError('auth', `HTTP 401 from 127.0.0.1:${server.port}: Invalid token`, 401));
      await assert.rejects(listOpenAiModels(config, new AbortController().signal),
        new ProviderError('protocol', 'The model list has neither `data` nor `models`.'));
    });
  });
});
