/**
 * `<stateDir>/traces.jsonl`: one trace entry a line, rotated by size to traces.1.jsonl …
 * traces.KEEP.jsonl. Appends are single O_APPEND writes (base/fs/jsonLines.ts) without the lock (a trace
 * must never slow a tool call much); only rotation takes the state lock.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { atomicWrite, renameRetrying } from '../../base/fs/atomicWrite';
import { appendJsonLines, readJsonLines, type CorruptLine } from '../../base/fs/jsonLines';
import type { HarnessFingerprint } from '../../models/fingerprint/fingerprint';
import { withLock } from '../../base/state/lock';

export const TRACES_FILE = 'traces.jsonl';
export const MAX_TRACE_BYTES = 5 * 1024 * 1024;
export const KEEP_TRACE_FILES = 3;

export type TraceKind = 'decision' | 'result' | 'model';

export interface TraceTokens {
  /** Tokens the model reads (a tool's output becomes the model's input). */
  input: number;
  output: number;
  /** Input tokens served from a provider's prompt cache, when the caller knows. */
  cached: number;
}

export interface TraceEntry {
  v: 1;
  ts: string;
  kind: TraceKind;
  tool?: string;
  source: string;
  model: string | null;
  role: string;
  session: string | null;
  decision?: 'allow' | 'deny';
  code?: string;
  reason?: string;
  /** The tool's arguments, redacted and shortened. */
  input?: unknown;
  /** decision: the gate's time; result: from the decision to the charge, when both ran in this process. */
  latencyMs: number | null;
  tokens?: TraceTokens;
  /** Estimated USD, kept apart from the token counts. */
  costUsd?: number;
  costEstimated?: boolean;
  harness: string;
  /** The harness configuration of the call; absent in traces written before it existed. */
  fingerprint?: HarnessFingerprint;
}

export function traceFile(stateDir: string, n = 0): string {
  return path.join(stateDir, n === 0 ? TRACES_FILE : `traces.${n}.jsonl`);
}

/** Existing trace files, oldest first. */
export function traceFiles(stateDir: string): string[] {
  const files: string[] = [];
  for (let n = KEEP_TRACE_FILES; n >= 0; n--) files.push(traceFile(stateDir, n));
  return files.filter((f) => fs.existsSync(f));
}

export async function appendTrace(stateDir: string, entry: TraceEntry, maxBytes = MAX_TRACE_BYTES): Promise<void> {
  const file = traceFile(stateDir);
  appendJsonLines(file, [entry]);
  if (fs.statSync(file).size < maxBytes) return;
  await withLock(stateDir, () => {
    // Another process may have rotated while this one waited.
    let size: number;
    try {
      size = fs.statSync(file).size;
    } catch {
      return;
    }
    if (size < maxBytes) return;
    fs.rmSync(traceFile(stateDir, KEEP_TRACE_FILES), { force: true });
    for (let n = KEEP_TRACE_FILES - 1; n >= 1; n--) {
      if (fs.existsSync(traceFile(stateDir, n))) renameRetrying(traceFile(stateDir, n), traceFile(stateDir, n + 1));
    }
    renameRetrying(file, traceFile(stateDir, 1));
  });
}

export interface TracesRead {
  entries: TraceEntry[];
  corrupt: CorruptLine[];
}

/** Every trace entry, oldest first; corrupt lines skipped and reported. */
export function readTraces(stateDir: string): TracesRead {
  const entries: TraceEntry[] = [];
  const corrupt: CorruptLine[] = [];
  for (const file of traceFiles(stateDir)) {
    const read = readJsonLines(file, (value) => {
      const e = value as TraceEntry | null;
      return e && typeof e === 'object' && typeof e.ts === 'string' && typeof e.kind === 'string' ? e : 'not a trace entry';
    });
    entries.push(...read.records);
    corrupt.push(...read.corrupt);
  }
  return { entries, corrupt };
}

/** Every readable entry as JSONL text, oldest first, for an export the user keeps. */
export function tracesAsJsonl(stateDir: string): { text: string; count: number; corrupt: CorruptLine[] } {
  const { entries, corrupt } = readTraces(stateDir);
  return { text: entries.map((e) => JSON.stringify(e) + '\n').join(''), count: entries.length, corrupt };
}

/** Writes every readable entry to `dest` as JSONL, atomically. */
export function exportTraces(stateDir: string, dest: string): { count: number; corrupt: CorruptLine[] } {
  const { text, count, corrupt } = tracesAsJsonl(stateDir);
  atomicWrite(dest, text);
  return { count, corrupt };
}
