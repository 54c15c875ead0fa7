/**
 * The SSE decoder: the same events whatever the line ends and wherever the chunks break (inside a line
 * end, inside a UTF-8 character), comments and unknown fields ignored, and a last event without its
 * blank line kept; over a real HTTP body from the fake model server too.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SseDecoder, type SseEvent, sseEvents } from '../../../../src/core/models/providers/sse';
import { startFakeModelServer } from '../../../support/fakeModelServer';

function decodeAll(chunks: Array<string | Uint8Array>): SseEvent[] {
  const decoder = new SseDecoder();
  return [...chunks.flatMap((c) => decoder.push(c)), ...decoder.end()];
}

const STREAM = ': keep-alive comment\n'
  + 'event: message_start\ndata: {"a":1}\n\n'
  + 'data: first line\ndata: second line\n\n'
  + 'id: 7\nretry: 1000\nfoo: an unknown field\ndata:no space kept\n\n'
  + 'event: end\ndata:  two spaces, one kept\n\n';

const EXPECTED: SseEvent[] = [
  { event: 'message_start', data: '{"a":1}' },
  { event: undefined, data: 'first line\nsecond line' },
  { event: undefined, data: 'no space kept' },
  { event: 'end', data: ' two spaces, one kept' },
];

describe('SSE decoder', () => {
  it('parses a whole stream: event names, multi-line data, comments and unknown fields ignored', () => {
    assert.deepEqual(decodeAll([STREAM]), EXPECTED);
  });

  it('gives the same events with CRLF and CR line ends', () => {
    assert.deepEqual(decodeAll([STREAM.replace(/\n/g, '\r\n')]), EXPECTED);
    assert.deepEqual(decodeAll([STREAM.replace(/\n/g, '\r')]), EXPECTED);
  });

  it('gives the same events whatever the chunk boundaries, a CRLF split in two included', () => {
    const crlf = STREAM.replace(/\n/g, '\r\n');
    for (let cut = 1; cut < crlf.length; cut++) {
      assert.deepEqual(decodeAll([crlf.slice(0, cut), crlf.slice(cut)]), EXPECTED, `cut at ${cut}`);
    }
    assert.deepEqual(decodeAll(crlf.split('')), EXPECTED, 'one character a chunk');
  });

  it('decodes UTF-8 split inside a character, and drops a leading byte-order mark', () => {
    const bytes = new TextEncoder().encode('\uFEFFdata: h€llo 🙂\n\n');
    const chunks = Array.from(bytes, (b) => Uint8Array.of(b));
    assert.deepEqual(decodeAll(chunks), [{ event: undefined, data: 'h€llo 🙂' }]);
    assert.deepEqual(decodeAll(['\uFEFFdata: x\n\n']), [{ event: undefined, data: 'x' }]);
  });

  it('emits events as soon as their blank line arrives, and a last event without one at the end', () => {
    const decoder = new SseDecoder();
    assert.deepEqual(decoder.push('data: a\n'), []);
    assert.deepEqual(decoder.push('\ndata: b'), [{ event: undefined, data: 'a' }]);
    assert.deepEqual(decoder.push('\r'), []);
    assert.deepEqual(decoder.end(), [{ event: undefined, data: 'b' }]);
    assert.deepEqual(decodeAll(['data: c\n']), [{ event: undefined, data: 'c' }]);
    assert.deepEqual(decodeAll(['data: d\n\n']), [{ event: undefined, data: 'd' }], 'a complete stream gains nothing at the end');
    assert.deepEqual(decodeAll(['event: only-a-name\n\n', ': just a comment']), [], 'no data, no event');
  });

  it('reads the events of a real streamed HTTP body', async () => {
    const server = await startFakeModelServer();
    try {
      server.script([{ sse: ['event: one\nda', 'ta: 1\r\n\r', '\ndata: 2\n\ndata: 3'] }]);
      const response = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: '{}' });
      const events: SseEvent[] = [];
      for await (const e of sseEvents(response.body!)) events.push(e);
      assert.deepEqual(events, [{ event: 'one', data: '1' }, { event: undefined, data: '2' }, { event: undefined, data: '3' }]);
    } finally {
      await server.close();
    }
  });
});
