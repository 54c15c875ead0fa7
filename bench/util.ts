/** Shared by the benchmarks: medians and percentiles, one result line each, and the exit code. */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EVENTS_FILE, KEEP_ROTATED, rotatedFile } from '../src/core/base/events/format';
import type { AlfredEvent } from '../src/core/base/events/types';
import { seededRandom } from '../src/core/trials/stats';

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The nearest-rank percentile (`p` in 0..100). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/**
 * The order in which round `round` of a benchmark runs its ways: shuffled afresh each round, the same
 * shuffle for the same round in every run. What ran just before shapes what runs next (the caches it
 * left warm or cold), and a fixed order rotated each round leaves every way behind the same other way
 * in all but one round of each cycle: in the hook benchmark, the launcher's bash started about 0.3 ms
 * later behind `node` than the instant server's did behind `bash`.
 */
export function roundOrder<T>(ways: readonly T[], round: number): T[] {
  const random = seededRandom(round + 1);
  const order = [...ways];
  // Fisher–Yates.
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `alfred-bench-${prefix}-`));
}

let failed = false;

/** Prints `name: detail → PASS|FAIL` and remembers a failure for `finish()`. */
export function verdict(name: string, detail: string, pass: boolean): void {
  if (!pass) failed = true;
  console.log(`${name}: ${detail} → ${pass ? 'PASS' : 'FAIL'}`);
}

export function finish(): void {
  process.exitCode = failed ? 1 : 0;
}

const TOOLS = ['read_file', 'grep_search', 'run_in_terminal', 'replace_string_in_file', 'Read', 'Bash', 'Edit', 'get_terminal_output'];

/**
 * `count` events as a long agent session writes them: ToolCall decisions and results (with
 * charges), now and then a refusal, all in one session.
 */
export function* sessionEvents(count: number, role = 'coder'): Generator<AlfredEvent> {
  const session = randomUUID();
  const start = Date.parse('2025-06-01T09:00:00Z');
  for (let i = 0; i < count; i++) {
    const tool = TOOLS[i % TOOLS.length]!;
    const base = { id: randomUUID(), ts: new Date(start + i * 1500).toISOString(), session, role, tool };
    if (i % 50 === 49) {
      const reason = `Tool ${tool} is denied for role ${role} by the pattern "${tool}". Ask the user to switch role if ${tool} is needed.`;
      yield { ...base, type: 'PolicyViolation', category: 'other', code: 'tool-denied', reason, source: 'hook:PreToolUse' };
    } else if (i % 2 === 0) {
      yield { ...base, type: 'ToolCall', phase: 'decision', category: 'read', decision: 'allow', source: 'hook:PreToolUse', charge: { shell: 0 } };
    } else {
      yield { ...base, type: 'ToolCall', phase: 'result', category: 'read', source: 'hook:PostToolUse', charge: { tokens: 3, costUsd: 0.000009, estimated: true } };
    }
  }
}

/** Writes events as JSON lines, in chunks (constant memory). */
export function writeEventFile(file: string, events: Iterable<AlfredEvent>): number {
  const fd = fs.openSync(file, 'w', 0o600);
  let lines = 0;
  let chunk: string[] = [];
  const flush = (): void => {
    fs.writeSync(fd, chunk.join(''));
    chunk = [];
  };
  try {
    for (const e of events) {
      chunk.push(JSON.stringify(e) + '\n');
      lines++;
      if (chunk.length === 5000) flush();
    }
    flush();
  } finally {
    fs.closeSync(fd);
  }
  return lines;
}

/**
 * `count` events spread evenly over the files the log keeps (events.5.jsonl, oldest, … events.1.jsonl,
 * events.jsonl), so a fold reads them as it would a long history.
 */
export function writeRotatedLog(dir: string, count: number): void {
  const files = [...Array.from({ length: KEEP_ROTATED }, (_, i) => rotatedFile(dir, KEEP_ROTATED - i)), path.join(dir, EVENTS_FILE)];
  const perFile = Math.ceil(count / files.length);
  const events = sessionEvents(count);
  for (const file of files) {
    writeEventFile(file, (function* () {
      for (let i = 0; i < perFile; i++) {
        const next = events.next();
        if (next.done) return;
        yield next.value;
      }
    })());
  }
}

