/**
 * The Anthropic messages client against a real streaming server on loopback: the wire request (headers,
 * `/v1` once, `max_tokens`, system, images, tool use and results), the exact parts of the typed event
 * stream (usage combined into one part, cached tokens counted in the input), and each way a request
 * fails, with messages that never carry the key.
 */
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { after, before, beforeEach, describe, it } from 'node:test';
import { anthropicUrl, listAnthropicModels, streamAnthropicMessages } from '../../../../src/core/models/providers/anthropicMessages';
import type { EndpointConfig } from '../../../../src/core/models/providers/http';
import { type ChatRequest, ProviderError } from '../../../../src/core/models/providers/types';
import { type FakeModelServer, startFakeModelServer } from '../../../support/fakeModelServer';
import { drain } from './drain';

const KEY = 'sk-ant-test-93c1d8e2a7';
const HELLO: ChatRequest = { model: 'claude-test', messages: [{ role: 'user', parts: [{ type: 'text', text: 'Hello' }] }] };

/** One `event:` + `data:` SSE event, as Anthropic writes them. */
const ev = (type: string, body: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`;

describe('Anthropic messages', () => {
  let server: FakeModelServer;
  let config: EndpointConfig;
  const run = (request: ChatRequest = HELLO, signal = new AbortController().signal, overrides: Partial<EndpointConfig> = {}) =>
    drain(streamAnthropicMessages({ ...config, ...overrides }, request, signal));

  before(async () => {
    server = await startFakeModelServer();
    config = { baseUrl: server.url, apiKey: KEY, timeoutMs: 5_000 };
  });
  beforeEach(() => { server.requests.length = 0; });
  after(() => server.close());

  it('adds /v1 to the base URL once', () => {
    assert.equal(anthropicUrl('https://api.anthropic.com', 'messages'), 'https://api.anthropic.com/v1/messages');
    assert.equal(anthropicUrl('https://api.anthropic.com/', 'messages'), 'https://api.anthropic.com/v1/messages');
    assert.equal(anthropicUrl('https://proxy.example/anthropic/v1', 'messages'), 'https://proxy.example/anthropic/v1/messages');
    assert.equal(anthropicUrl('https://proxy.example/anthropic/v1/', 'models?limit=1000'), 'https://proxy.example/anthropic/v1/models?limit=1000');
  });

  it('streams a text answer as text parts, then done, and sends the key only as x-api-key', async () => {
    server.script([{ text: ['Hel', 'lo', '!'] }]);
    const { parts, error } = await run();
    assert.equal(error, undefined);
    assert.deepEqual(parts, [
      { type: 'text', text: 'Hel' }, { type: 'text', text: 'lo' }, { type: 'text', text: '!' },
      { type: 'done', finishReason: 'end_turn' },
    ]);
    const [req] = server.requests;
    assert.equal(req.method, 'POST');
    assert.equal(req.path, '/v1/messages');
    assert.equal(req.headers['x-api-key'], KEY);
    assert.equal(req.headers['anthropic-version'], '2023-06-01');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers.authorization, undefined);
    assert.deepEqual(req.body, { model: 'claude-test', max_tokens: 4096, stream: true, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }] });
    const elsewhere = JSON.stringify({ ...req, headers: { ...req.headers, 'x-api-key': undefined } });
    assert.equal(elsewhere.includes(KEY), false, 'the key is in no other header and not in the body');
  });

  it('converts the neutral conversation: system on top, image blocks, tool_use, tool_result in a user message, tools, required mode', async () => {
    server.script([{ text: ['done'] }]);
    const request: ChatRequest = {
      model: 'claude-test',
      messages: [
        { role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
        { role: 'user', parts: [{ type: 'text', text: 'What is this?' }, { type: 'image', mimeType: 'image/jpeg', data: Uint8Array.of(255, 216, 255) }] },
        { role: 'assistant', parts: [{ type: 'text', text: 'Let me look.' }, { type: 'toolCall', callId: 'toolu_1', name: 'ctx_read', input: { path: 'a.ts' } }] },
        { role: 'user', parts: [{ type: 'text', text: 'Go on.' }, { type: 'toolResult', callId: 'toolu_1', content: 'no such file', isError: true }] },
      ],
      tools: [{ name: 'ctx_read', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }, { name: 'ctx_tree', description: 'List files' }],
      toolMode: 'required',
      maxOutputTokens: 1000,
    };
    await run(request);
    assert.deepEqual(server.requests[0].body, {
      model: 'claude-test',
      max_tokens: 1000,
      stream: true,
      system: 'Be brief.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/' } }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }, { type: 'tool_use', id: 'toolu_1', name: 'ctx_read', input: { path: 'a.ts' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'no such file', is_error: true }, { type: 'text', text: 'Go on.' }] },
      ],
      tools: [
        { name: 'ctx_read', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
        { name: 'ctx_tree', description: 'List files', input_schema: { type: 'object', properties: {} } },
      ],
      tool_choice: { type: 'any' },
    });
  });

  it('assembles streamed tool input into one toolCall part per block, at its content_block_stop', async () => {
    server.script([{
      thinking: ['Two files.'],
      text: ['Reading.'],
      toolCalls: [
        { id: 'toolu_a', name: 'ctx_read', arguments: ['{"pa', 'th": "src/', 'a.ts"}'] },
        { id: 'toolu_b', name: 'ctx_tree', arguments: [] },
      ],
    }]);
    const { parts, error } = await run();
    assert.equal(error, undefined);
    assert.deepEqual(parts, [
      { type: 'thinking', text: 'Two files.' },
      { type: 'text', text: 'Reading.' },
      { type: 'toolCall', callId: 'toolu_a', name: 'ctx_read', input: { path: 'src/a.ts' } },
      { type: 'toolCall', callId: 'toolu_b', name: 'ctx_tree', input: {} },
      { type: 'done', finishReason: 'tool_use' },
    ]);
  });

  it('reports tool input that is not JSON as a protocol error naming the tool', async () => {
    server.script([{ toolCalls: [{ id: 'toolu_x', name: 'ctx_edit', arguments: ['{"path": '] }] }]);
    const { error } = await run();
    assert.equal(error?.kind, 'protocol');
    assert.equal(error?.message, 'The model called the tool "ctx_edit" with arguments that are not valid JSON.');
  });

  it('combines message_start and message_delta usage into one part; input counts cache reads and writes', async () => {
    // The wire as Anthropic sends it: 20 uncached + 100 read from the cache + 30 written to it = 150 in.
    server.script([{
      sse: [
        ev('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 20, cache_read_input_tokens: 100, cache_creation_input_tokens: 30, output_tokens: 1 } } }),
        ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hi' } }),
        ev('content_block_stop', { index: 0 }),
        ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 7 } }),
        ev('message_stop', {}),
      ],
    }, { text: ['Hey'], usage: { inputTokens: 1500, outputTokens: 12, cachedInputTokens: 1024, cacheCreationInputTokens: 400 } }]);
    assert.deepEqual((await run()).parts, [
      { type: 'text', text: 'Hi' },
      { type: 'usage', usage: { inputTokens: 150, outputTokens: 7, cachedInputTokens: 100, cacheCreationInputTokens: 30 } },
      { type: 'done', finishReason: 'end_turn' },
    ]);
    assert.deepEqual((await run()).parts, [
      { type: 'text', text: 'Hey' },
      { type: 'usage', usage: { inputTokens: 1500, outputTokens: 12, cachedInputTokens: 1024, cacheCreationInputTokens: 400 } },
      { type: 'done', finishReason: 'end_turn' },
    ]);
  });

  it('turns stop_reason "refusal" into a refusal part', async () => {
    server.script([{ text: ['I'], contentFilter: true, usage: { inputTokens: 10, outputTokens: 1 } }]);
    assert.deepEqual((await run()).parts, [
      { type: 'text', text: 'I' },
      { type: 'refusal', message: 'The model declined to go on (stop reason: refusal).' },
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 1, cachedInputTokens: 0, cacheCreationInputTokens: 0 } },
      { type: 'done', finishReason: 'refusal' },
    ]);
  });

  it('an error event in the stream fails with its type\'s status', async () => {
    server.script([{ text: ['Par'], streamError: { type: 'overloaded_error', message: 'Overloaded' } }]);
    const { parts, error } = await run();
    assert.deepEqual(parts, [{ type: 'text', text: 'Par' }]);
    assert.equal(error?.kind, 'http');
    assert.equal(error?.status, 529);
    assert.equal(error?.message, 'The stream reported overloaded_error: Overloaded');
  });

  it('fails with HTTP 429: kind http, the status, the body\'s message', async () => {
    server.script([{ status: 429, error: 'Number of request tokens has exceeded your per-minute rate limit.' }]);
    const { error } = await run();
    assert.ok(error instanceof ProviderError);
    assert.deepEqual([error.kind, error.status, error.message],
      ['http', 429, `HTTP 429 from 127.0.0.1:${server.port}: Number of request tokens has exceeded your per-minute rate limit.`]);
  });

  it('fails with HTTP 401 as auth, and the key appears nowhere in the error', async () => {
    server.script([{ status: 401, error: `invalid x-api-key: ${KEY}` }]);
    const { error } = await run();
    assert.ok(error instanceof ProviderError);
    assert.deepEqual([error.kind, error.status, error.message], ['auth', 401, `HTTP 401 from 127.0.0.1:${server.port}: invalid x-api-key: [redacted]`]);
    for (const view of [error.message, error.stack ?? '', inspect(error, { depth: 10 }), JSON.stringify(error)]) {
      assert.equal(view.includes(KEY), false);
    }
  });

  it('fails with connection when nothing listens', async () => {
    const gone = await startFakeModelServer();
    const port = gone.port;
    await gone.close();
    const { error } = await run(HELLO, undefined, { baseUrl: `http://127.0.0.1:${port}` });
    assert.equal(error?.kind, 'connection');
    assert.equal(error?.message, `Could not connect to 127.0.0.1:${port} (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${port}).`);
  });

  it('times out without a first byte, and when the stream stalls', async () => {
    server.script([{ firstByteDelayMs: 3_000, text: ['late'] }, { text: ['Hel', 'lo'], stallAfterChunks: 4 }]);
    const first = await run(HELLO, undefined, { timeoutMs: 200 });
    assert.deepEqual([first.error?.kind, first.error?.message], ['timeout', `No answer from 127.0.0.1:${server.port} within 0.2 s.`]);
    // Writes: message_start, ping, the text block's start, "Hel", then nothing.
    const stalled = await run(HELLO, undefined, { timeoutMs: 300 });
    assert.deepEqual(stalled.parts, [{ type: 'text', text: 'Hel' }]);
    assert.deepEqual([stalled.error?.kind, stalled.error?.message], ['timeout', `The answer from 127.0.0.1:${server.port} stalled: no data for 0.3 s.`]);
  });

  it('ends with cancelled when the caller aborts mid-stream', async () => {
    server.script([{ text: ['one', 'two', 'three'], chunkDelayMs: 200 }]);
    const controller = new AbortController();
    const { parts, error } = await drain(streamAnthropicMessages(config, HELLO, controller.signal), () => controller.abort());
    assert.deepEqual(parts, [{ type: 'text', text: 'one' }]);
    assert.deepEqual([error?.kind, error?.message], ['cancelled', 'The request was cancelled.']);
  });

  it('a connection dropped mid-stream is a connection failure; a stream that ends cleanly before message_stop is a protocol one', async () => {
    // Dropped: the transport failed (undici's `terminated`, UND_ERR_SOCKET), as a refused connection would.
    server.script([
      { text: ['Hel', 'lo'], dropAfterChunks: 4, chunkDelayMs: 50 },
      { sse: [ev('message_start', { message: { id: 'msg_2', usage: { input_tokens: 5, output_tokens: 1 } } }), ev('content_block_start', { index: 0, content_block: { type: 'text', text: 'Hel' } })] },
    ]);
    const dropped = await run();
    assert.deepEqual(dropped.parts, [{ type: 'text', text: 'Hel' }]);
    assert.deepEqual([dropped.error?.kind, dropped.error?.message],
      ['connection', `The connection to 127.0.0.1:${server.port} broke during the answer (UND_ERR_SOCKET: other side closed).`]);
    // Ended: the server closed the body properly, but the protocol's end never came.
    const ended = await run();
    assert.deepEqual(ended.parts, [{ type: 'text', text: 'Hel' }]);
    assert.deepEqual([ended.error?.kind, ended.error?.message], ['protocol', `The stream from 127.0.0.1:${server.port} ended before the answer was complete.`]);
  });

  describe('model listing', () => {
    it('lists GET /v1/models with the key and version, with the input window when given', async () => {
      server.models = [{ id: 'claude-test', contextLength: 200_000 }, { id: 'claude-small' }];
      assert.deepEqual(await listAnthropicModels(config, new AbortController().signal), [{ id: 'claude-test', contextLength: 200_000 }, { id: 'claude-small' }]);
      const [req] = server.requests;
      assert.deepEqual([req.method, req.path, req.headers['x-api-key'], req.headers['anthropic-version']], ['GET', '/v1/models?limit=1000', KEY, '2023-06-01']);
    });

    it('follows has_more page by page', async () => {
      server.script([
        { on: 'models', json: { data: [{ type: 'model', id: 'a' }], has_more: true, first_id: 'a', last_id: 'a' } },
        { on: 'models', json: { data: [{ type: 'model', id: 'b' }], has_more: false, first_id: 'b', last_id: 'b' } },
      ]);
      assert.deepEqual(await listAnthropicModels(config, new AbortController().signal), [{ id: 'a' }, { id: 'b' }]);
      assert.deepEqual(server.requests.map((r) => r.path), ['/v1/models?limit=1000', '/v1/models?limit=1000&after_id=a']);
    });

    it('fails with 403 as auth', async () => {
      server.script([{ on: 'models', status: 403, error: 'Your API key does not have permission to use the specified resource.' }]);
      await assert.rejects(listAnthropicModels(config, new AbortController().signal),
        new ProviderError('auth', `HTTP 403 from 127.0.0.1:${server.port}: Your API key does not have permission to use the specified resource.`, 403));
    });
  });
});
