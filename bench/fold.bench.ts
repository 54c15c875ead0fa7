/**
 * (c) Folding the event log into the ledger (`foldLedger`, as a corrupt or missing ledger.json is
 * rebuilt): 100,000 events under 200 ms, with memory flat: the heap grows no more for 100,000
 * events than for 10,000. Baseline: reading the same file with readFileSync and splitting lines.
 * Run with --expose-gc so the heap is measured after a collection.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EVENTS_FILE } from '../src/core/events/log';
import { foldLedger } from '../src/core/state/ledger';
import { finish, median, nowMs, sessionEvents, tempDir, verdict, writeEventFile } from './util';

const TARGET_MS = 200;
const RUNS = 5;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MB`;

interface FoldRun { ms: number; heapBefore: number; heapPeak: number; heapAfter: number; events: number }

function makeLog(count: number): string {
  const dir = tempDir(`fold${count}`);
  // One file, past the 10,000-line rotation, so the whole count is folded from one stream.
  writeEventFile(path.join(dir, EVENTS_FILE), sessionEvents(count));
  return dir;
}

/** One fold, timed, with the heap sampled every 5 ms while it runs (a timer interleaves with the stream). */
async function foldOnce(dir: string): Promise<FoldRun> {
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  const timer = setInterval(() => { heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed); }, 5);
  const t0 = nowMs();
  const ledger = await foldLedger(dir);
  const ms = nowMs() - t0;
  clearInterval(timer);
  heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  gc();
  return { ms, heapBefore, heapPeak, heapAfter: process.memoryUsage().heapUsed, events: ledger?.eventLines ?? 0 };
}

function readSplit(dir: string): number {
  const t0 = nowMs();
  const lines = fs.readFileSync(path.join(dir, EVENTS_FILE), 'utf8').split('\n');
  if (lines.length < 2) throw new Error('empty log');
  return nowMs() - t0;
}

async function measure(count: number): Promise<{ fold: FoldRun; baseline: number; bytes: number }> {
  const dir = makeLog(count);
  const bytes = fs.statSync(path.join(dir, EVENTS_FILE)).size;
  await foldOnce(dir); // warm-up: JIT, file cache
  const folds: FoldRun[] = [];
  const baselines: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    baselines.push(readSplit(dir));
    folds.push(await foldOnce(dir));
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const mid = folds.slice().sort((a, b) => a.ms - b.ms)[RUNS >> 1]!;
  return { fold: { ...mid, heapPeak: median(folds.map((f) => f.heapPeak - f.heapBefore)) + mid.heapBefore }, baseline: median(baselines), bytes };
}

async function main(): Promise<void> {
  const small = await measure(10_000);
  const big = await measure(100_000);
  for (const [label, r] of [['10,000', small], ['100,000', big]] as const) {
    const f = r.fold;
    console.log(`foldLedger ${label} events (${mb(r.bytes)}): median ${f.ms.toFixed(1)} ms | baseline readFileSync+split ${r.baseline.toFixed(1)} ms | ratio ${(f.ms / r.baseline).toFixed(1)}× | heap before ${mb(f.heapBefore)}, peak +${mb(f.heapPeak - f.heapBefore)}, after ${mb(f.heapAfter)}`);
  }
  const growth = (big.fold.heapPeak - big.fold.heapBefore) / Math.max(1, small.fold.heapPeak - small.fold.heapBefore);
  // Flat: ten times the events may not take more than twice the peak (plus 4 MB of GC slack), nor leave anything behind.
  const flat = big.fold.heapPeak - big.fold.heapBefore <= 2 * (small.fold.heapPeak - small.fold.heapBefore) + 4 * 1048576
    && big.fold.heapAfter - big.fold.heapBefore < 1048576;
  verdict('foldLedger 100,000 events', `median ${big.fold.ms.toFixed(1)} ms, target < ${TARGET_MS} ms | ratio ${(big.fold.ms / big.baseline).toFixed(1)}× baseline`, big.fold.ms < TARGET_MS);
  verdict('foldLedger memory', `peak heap growth 100,000 vs 10,000 events: ${growth.toFixed(2)}× (target: flat, ≤ 2× + 4 MB), retained after: ${mb(big.fold.heapAfter - big.fold.heapBefore)}`, flat);
  finish();
}

void main();
