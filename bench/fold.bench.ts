/**
 * (c) Folding the event log into the ledger (`foldLedger`, as a corrupt or missing ledger.json is
 * rebuilt): 100,000 events under 200 ms, with memory flat: the heap grows no more for 100,000
 * events than for 10,000. The events are spread over the six files the log keeps, written as Alfred
 * writes them (keys in `complete()`'s order: id, ts, type, session, role, payload). Baseline: reading
 * the same files with readFileSync and splitting lines; also shown, the same plus JSON.parse of every
 * line, which the fold avoids for the lines Alfred wrote, and (information only) one fold of events
 * in another key order, whose every line is parsed in full. Run with --expose-gc so the heap is
 * measured after a collection.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EVENTS_FILE, KEEP_ROTATED, eventFiles, rotatedFile } from '../src/core/base/events/format';
import type { AlfredEvent } from '../src/core/base/events/types';
import { foldLedger } from '../src/core/ledger/ledgerFold';
import { finish, median, nowMs, sessionEvents, tempDir, verdict, writeEventFile, writeRotatedLog } from './util';

const TARGET_MS = 200;
const RUNS = 5;
const MB = 1048576;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const mb = (bytes: number): string => `${(bytes / MB).toFixed(1)} MB`;
const heapUsed = (): number => process.memoryUsage().heapUsed;

interface Result {
  ms: number;
  baselineMs: number;
  /** Reading, splitting and JSON.parse of every line. */
  parseMs: number;
  bytes: number;
  heapBefore: number;
  /** Highest heap seen while folding, above the heap before. */
  peak: number;
  /** Heap left after the fold and a collection, above the heap before. */
  retained: number;
}

/** `sessionEvents` with their keys in the order `complete()` (ledger/ledgerStore.ts) writes them. */
function* alfredOrder(events: Iterable<AlfredEvent>): Generator<AlfredEvent> {
  for (const { id, ts, type, session, role, ...payload } of events) yield { id, ts, type, session, role, ...payload };
}

/** Like util's `writeRotatedLog`, `count` events spread evenly over the six files, in Alfred's key order. */
function writeAlfredLog(dir: string, count: number): void {
  const files = [...Array.from({ length: KEEP_ROTATED }, (_, i) => rotatedFile(dir, KEEP_ROTATED - i)), path.join(dir, EVENTS_FILE)];
  const perFile = Math.ceil(count / files.length);
  const events = alfredOrder(sessionEvents(count));
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

/** One fold, timed, with the heap sampled every 5 ms meanwhile (the timer runs between chunk reads). */
async function foldOnce(dir: string): Promise<{ ms: number; heapBefore: number; peak: number; retained: number }> {
  gc();
  const heapBefore = heapUsed();
  let top = heapBefore;
  const timer = setInterval(() => { top = Math.max(top, heapUsed()); }, 5);
  const t0 = nowMs();
  const ledger = await foldLedger(dir);
  const ms = nowMs() - t0;
  clearInterval(timer);
  if (!ledger) throw new Error('nothing folded');
  top = Math.max(top, heapUsed());
  gc();
  return { ms, heapBefore, peak: top - heapBefore, retained: heapUsed() - heapBefore };
}

/** The baseline: read and split, and (`parse`) also JSON.parse every line, the floor of any fold. */
function readAndSplit(dir: string, parse = false): number {
  const t0 = nowMs();
  let lines = 0;
  for (const file of eventFiles(dir)) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      lines++;
      if (parse) JSON.parse(line);
    }
  }
  if (lines === 0) throw new Error('empty log');
  return nowMs() - t0;
}

async function measure(count: number): Promise<Result> {
  const dir = tempDir(`fold${count}`);
  writeAlfredLog(dir, count);
  const bytes = eventFiles(dir).reduce((n, f) => n + fs.statSync(f).size, 0);
  await foldOnce(dir); // warm-up: JIT and file cache
  const folds: Awaited<ReturnType<typeof foldOnce>>[] = [];
  const baselines: number[] = [];
  const parses: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    baselines.push(readAndSplit(dir));
    parses.push(readAndSplit(dir, true));
    folds.push(await foldOnce(dir));
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    ms: median(folds.map((f) => f.ms)), baselineMs: median(baselines), parseMs: median(parses), bytes, heapBefore: median(folds.map((f) => f.heapBefore)),
    peak: median(folds.map((f) => f.peak)), retained: Math.max(...folds.map((f) => f.retained)),
  };
}

/** Information only: one fold (after a warm-up) of events whose keys are in another order. */
async function otherOrder(count: number): Promise<number> {
  const dir = tempDir(`fold-other${count}`);
  writeRotatedLog(dir, count);
  await foldOnce(dir);
  const { ms } = await foldOnce(dir);
  fs.rmSync(dir, { recursive: true, force: true });
  return ms;
}

async function main(): Promise<void> {
  const small = await measure(10_000);
  const big = await measure(100_000);
  const other = await otherOrder(100_000);
  for (const [label, r] of [['10,000', small], ['100,000', big]] as const) {
    console.log(`foldLedger ${label} events (${mb(r.bytes)}): median ${r.ms.toFixed(1)} ms | baseline readFileSync+split ${r.baselineMs.toFixed(1)} ms | ratio ${(r.ms / r.baselineMs).toFixed(1)}× | read+split+JSON.parse alone ${r.parseMs.toFixed(1)} ms | heap before ${mb(r.heapBefore)}, peak +${mb(r.peak)}, retained ${mb(r.retained)}`);
  }
  console.log(`foldLedger 100,000 events in another key order (every line parsed in full, information only): ${other.toFixed(1)} ms`);
  verdict('foldLedger 100,000 events', `median ${big.ms.toFixed(1)} ms | ratio ${(big.ms / big.baselineMs).toFixed(1)}× baseline | target < ${TARGET_MS} ms`, big.ms < TARGET_MS);
  // Flat: ten times the events may not take more than twice the peak (plus 4 MB of GC slack), nor leave 1 MB behind.
  const flat = big.peak <= 2 * small.peak + 4 * MB && big.retained < MB;
  verdict('foldLedger memory', `peak heap +${mb(big.peak)} for 100,000 events vs +${mb(small.peak)} for 10,000 (${(big.peak / Math.max(1, small.peak)).toFixed(2)}×), retained ${mb(big.retained)} | target flat (≤ 2× + 4 MB, < 1 MB retained)`, flat);
  finish();
}

void main();
