/**
 * The event log's layout and line format: `events.jsonl` in the state folder, one JSON object a line,
 * rotated at 10,000 lines to `events.1.jsonl` … `events.5.jsonl`; how a line is read and where
 * lines break (the same for every reader, so line numbers agree).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AlfredEvent, CorruptLine } from './types';

export const EVENTS_FILE = 'events.jsonl';
export const MAX_LINES = 10_000;
export const KEEP_ROTATED = 5;

export function rotatedFile(dir: string, n: number): string {
  return path.join(dir, `events.${n}.jsonl`);
}

/** Existing log files, oldest first: events.5.jsonl … events.1.jsonl, events.jsonl. */
export function eventFiles(dir: string): string[] {
  const files: string[] = [];
  for (let n = KEEP_ROTATED; n >= 1; n--) files.push(rotatedFile(dir, n));
  files.push(path.join(dir, EVENTS_FILE));
  return files.filter((f) => fs.existsSync(f));
}

/**
 * The lines of a log file's text, broken where readline breaks them — `\n`, `\r\n` and a lone
 * `\r` — as scan.ts does chunk by chunk.
 */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** Parses one line: an event, a CorruptLine, or undefined for a blank line. */
export function parseEventLine(text: string, file: string, line: number): AlfredEvent | CorruptLine | undefined {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { file, line, message: `not valid JSON: ${(err as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { file, line, message: 'not a JSON object' };
  }
  const rec = value as Record<string, unknown>;
  const missing = ['id', 'ts', 'type'].filter((k) => typeof rec[k] !== 'string' || rec[k] === '');
  if (missing.length > 0) return { file, line, message: `missing ${missing.join(', ')}` };
  return rec as AlfredEvent;
}

export function isCorruptLine(x: AlfredEvent | CorruptLine): x is CorruptLine {
  return 'message' in x && 'line' in x && !('id' in x);
}
