/**
 * Server-Sent Events, incrementally: bytes or strings in, events out. The line parsing is
 * eventsource-parser's (CRLF / LF / CR, comments, multi-line data, chunk boundaries anywhere); this
 * file adds what a streamed answer needs around it: UTF-8 decoding across chunk boundaries, a bound on
 * the buffer, and the last event of a stream that ends without its blank line.
 */
import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';
import { ProviderError } from './types';

export interface SseEvent {
  /** The `event:` field; undefined when the server sent none (a browser would say `message`). */
  event: string | undefined;
  /** The `data:` lines, joined by `\n`. */
  data: string;
}

/** One unterminated line or event larger than this is not an answer but a broken or hostile stream. */
const MAX_BUFFER_CHARS = 16 * 1024 * 1024;

export class SseDecoder {
  private readonly text = new TextDecoder('utf-8');
  private readonly parser: EventSourceParser;
  private pending: SseEvent[] = [];
  private started = false;

  constructor() {
    this.parser = createParser({
      maxBufferSize: MAX_BUFFER_CHARS,
      onEvent: (e: EventSourceMessage) => { this.pending.push({ event: e.event, data: e.data }); },
      onError: (e) => {
        // Unknown fields and bad `retry:` values are ignored, as the SSE standard says; only the bound matters.
        if (e.type === 'max-buffer-size-exceeded') throw new ProviderError('protocol', 'The event stream has a line or event over 16 MiB.');
      },
    });
  }

  /** Feeds a chunk; returns the events it completed. */
  push(chunk: Uint8Array | string): SseEvent[] {
    let s = typeof chunk === 'string' ? chunk : this.text.decode(chunk, { stream: true });
    // TextDecoder drops a leading byte-order mark; a string source gets the same treatment.
    if (!this.started && s.length > 0) {
      this.started = true;
      if (typeof chunk === 'string' && s.charCodeAt(0) === 0xfeff) s = s.slice(1);
    }
    if (s) this.parser.feed(s);
    return this.take();
  }

  /** The stream ended: returns its last event when it lacked the closing blank line. */
  end(): SseEvent[] {
    const rest = this.text.decode();
    if (rest) this.parser.feed(rest);
    // Two line ends finish a half-written line and then the event; with nothing pending they do nothing.
    this.parser.feed('\n\n');
    return this.take();
  }

  private take(): SseEvent[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }
}

/** The events of a stream of chunks, as they complete. */
export async function* sseEvents(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseEvent> {
  const decoder = new SseDecoder();
  for await (const chunk of chunks) yield* decoder.push(chunk);
  yield* decoder.end();
}
