/**
 * Reading the event log whole or newest first. Readers take no lock and tolerate whatever they find:
 * corrupt lines are skipped (and reported), files rotated away while reading are passed over.
 */
import * as fs from 'node:fs';
import { eventFiles, isCorruptLine, parseEventLine, splitLines } from './format';
import type { AlfredEvent, CorruptLine, EventType } from './types';

/**
 * The log's events newest first, across its rotated files, parsed one line at a time as the caller
 * asks: a reader that stops early (at an earlier day, another session) parses only the lines it
 * needed. Corrupt lines and files rotated away while reading are passed over.
 */
export function* eventsNewestFirst(dir: string): Generator<AlfredEvent> {
  for (const file of eventFiles(dir).reverse()) {
    let lines: string[];
    try {
      lines = splitLines(fs.readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    for (let i = lines.length - 1; i >= 0; i--) {
      const e = parseEventLine(lines[i]!, file, i + 1);
      if (e && 'id' in e) yield e;
    }
  }
}

export interface ReadOptions {
  /** Only the last N matching events (across rotated files), oldest first. */
  tail?: number;
  types?: readonly EventType[];
}

export interface ReadResult {
  events: AlfredEvent[];
  corrupt: CorruptLine[];
}

function readFileEvents(file: string, types: ReadonlySet<string> | undefined): ReadResult {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { events: [], corrupt: [] }; // rotated away while we read: nothing to report
  }
  const events: AlfredEvent[] = [];
  const corrupt: CorruptLine[] = [];
  const lines = splitLines(text);
  lines.forEach((raw, i) => {
    const parsed = parseEventLine(raw, file, i + 1);
    if (!parsed) return;
    if (isCorruptLine(parsed)) corrupt.push(parsed);
    else if (!types || types.has(parsed.type)) events.push(parsed);
  });
  return { events, corrupt };
}

/** Reads the log; corrupt lines are skipped and reported with file and line number, never fatal. */
export function readEvents(dir: string, options: ReadOptions = {}): ReadResult {
  const { tail } = options;
  if (tail !== undefined && tail <= 0) return { events: [], corrupt: [] };
  const types = options.types ? new Set<string>(options.types) : undefined;
  const chunks: ReadResult[] = [];
  let found = 0;
  // Newest file first, so a tail stops reading as soon as it has enough.
  for (const file of eventFiles(dir).reverse()) {
    const chunk = readFileEvents(file, types);
    chunks.unshift(chunk);
    found += chunk.events.length;
    if (tail !== undefined && found >= tail) break;
  }
  const events = chunks.flatMap((c) => c.events);
  return {
    events: tail !== undefined ? events.slice(-tail) : events,
    corrupt: chunks.flatMap((c) => c.corrupt),
  };
}
