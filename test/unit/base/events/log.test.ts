import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { newEventId, nowIso } from '../../../../src/core/base/events/ids';
import { appendEvents, countLines } from '../../../../src/core/base/events/append';
import { EVENTS_FILE, KEEP_ROTATED, MAX_LINES, eventFiles, parseEventLine, rotatedFile } from '../../../../src/core/base/events/format';
import { eventsNewestFirst, readEvents } from '../../../../src/core/base/events/read';
import { foldEvents, scanEvents } from '../../../../src/core/base/events/scan';
import type { AlfredEvent, EventType } from '../../../../src/core/base/events/types';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-log-'));
const ev = (n: number, type: EventType = 'ToolCall'): AlfredEvent => ({ id: newEventId(), ts: nowIso(), type, session: 's', role: 'coder', n });
const ns = (events: AlfredEvent[]) => events.map((e) => e.n);

test('append and read back, one JSON object a line', () => {
  const dir = tmp();
  assert.equal(appendEvents(dir, [ev(1), ev(2)]).lines, 2);
  assert.equal(appendEvents(dir, [ev(3, 'PolicyViolation')], 2).lines, 3);
  const text = fs.readFileSync(path.join(dir, EVENTS_FILE), 'utf8');
  assert.equal(text.split('\n').length, 4);
  const { events, corrupt } = readEvents(dir);
  assert.deepEqual(ns(events), [1, 2, 3]);
  assert.deepEqual(corrupt, []);
  assert.deepEqual(ns(readEvents(dir, { types: ['PolicyViolation'] }).events), [3]);
  assert.deepEqual(ns(readEvents(dir, { tail: 2 }).events), [2, 3]);
  assert.deepEqual(readEvents(dir, { tail: 0 }).events, []);
});

test('corrupt lines are skipped and reported with file and line number', async () => {
  const dir = tmp();
  const file = path.join(dir, EVENTS_FILE);
  fs.writeFileSync(file, [
    JSON.stringify(ev(1)),
    '{"id":"x","ts":"t"',            // torn JSON
    JSON.stringify({ id: 'y', ts: 't', session: 's' }), // no type
    '',
    '[1,2]',
    JSON.stringify(ev(2)),
  ].join('\n') + '\n');
  const { events, corrupt } = readEvents(dir);
  assert.deepEqual(ns(events), [1, 2]);
  assert.deepEqual(corrupt.map((c) => [c.file, c.line]), [[file, 2], [file, 3], [file, 5]]);
  assert.match(corrupt[0]!.message, /not valid JSON/);
  assert.match(corrupt[1]!.message, /missing type/);
  const folded = await foldEvents(dir, (acc: number[], e) => [...acc, e.n as number], []);
  assert.deepEqual(folded.state, [1, 2]);
  assert.deepEqual(folded.corrupt.map((c) => c.line), [2, 3, 5]);
  assert.equal(folded.corruptCount, 3);
});

test('an append after a torn last line starts on a new line', () => {
  const dir = tmp();
  const file = path.join(dir, EVENTS_FILE);
  fs.writeFileSync(file, JSON.stringify(ev(1)) + '\n{"id":"torn');
  appendEvents(dir, [ev(2)]);
  const { events, corrupt } = readEvents(dir);
  assert.deepEqual(ns(events), [1, 2]);
  assert.deepEqual(corrupt.map((c) => c.line), [2]);
});

test(`rotation at ${MAX_LINES} lines, tail and fold across rotated files`, async () => {
  const dir = tmp();
  let lines = 0;
  let n = 0;
  // Batches of 100 events up to exactly MAX_LINES: no rotation yet.
  while (lines < MAX_LINES) lines = appendEvents(dir, Array.from({ length: 100 }, () => ev(++n)), lines).lines;
  assert.equal(lines, MAX_LINES);
  assert.equal(fs.existsSync(rotatedFile(dir, 1)), false);
  assert.equal(countLines(path.join(dir, EVENTS_FILE)), MAX_LINES);
  // One more line rotates.
  lines = appendEvents(dir, [ev(++n)], lines).lines;
  assert.equal(lines, 1);
  assert.equal(countLines(rotatedFile(dir, 1)), MAX_LINES);
  assert.equal(countLines(path.join(dir, EVENTS_FILE)), 1);
  // The tail spans both files, newest last.
  assert.deepEqual(ns(readEvents(dir, { tail: 3 }).events), [MAX_LINES - 1, MAX_LINES, MAX_LINES + 1]);
  const folded = await foldEvents(dir, (acc: { count: number; last: number }, e) => ({ count: acc.count + 1, last: e.n as number }), { count: 0, last: 0 });
  assert.deepEqual(folded.state, { count: MAX_LINES + 1, last: MAX_LINES + 1 });
  assert.equal(readEvents(dir).events.length, MAX_LINES + 1);
});

test(`only ${KEEP_ROTATED} rotated files are kept, newest first`, () => {
  const dir = tmp();
  // Rotate with tiny files by claiming the current file is full.
  for (let i = 1; i <= KEEP_ROTATED + 2; i++) appendEvents(dir, [ev(i)], i === 1 ? 0 : MAX_LINES);
  assert.equal(fs.existsSync(rotatedFile(dir, KEEP_ROTATED)), true);
  assert.equal(fs.existsSync(rotatedFile(dir, KEEP_ROTATED + 1)), false);
  assert.deepEqual(ns(readEvents(dir).events), [2, 3, 4, 5, 6, 7]);
  assert.deepEqual(ns(readEvents(dir, { tail: 2 }).events), [6, 7]);
});

test('a missing log reads as empty', async () => {
  const dir = tmp();
  assert.deepEqual(readEvents(dir), { events: [], corrupt: [] });
  assert.deepEqual((await foldEvents(dir, (a: number) => a + 1, 0)).state, 0);
});

/** The line reader before chunked reading: readline over a stream, the reference for line numbers. */
async function readlineLines(dir: string): Promise<{ events: unknown[]; corrupt: unknown[] }> {
  const events: unknown[] = [];
  const corrupt: unknown[] = [];
  for (const file of eventFiles(dir)) {
    const rl = readline.createInterface({ input: fs.createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
    let n = 0;
    for await (const text of rl) {
      const parsed = parseEventLine(text, file, ++n);
      if (parsed && 'message' in parsed && !('id' in parsed)) corrupt.push(parsed);
      else if (parsed) events.push(parsed);
    }
  }
  return { events, corrupt };
}

test('chunked reading breaks lines and numbers them exactly as readline, at any chunk size', async () => {
  const dir = tmp();
  const good = (n: number) => JSON.stringify(ev(n));
  const long = JSON.stringify({ ...ev(99), blob: 'x'.repeat(5000) });
  fs.writeFileSync(rotatedFile(dir, 2), `\uFEFF${good(1)}\n${good(2)}\r\nbad-a\r\n\r\n${good(3)}\rbad-b\r${good(4)}\r\r\nbad-c\n   \n\t\n${long}\nbad-d\r\nbad-e`);
  fs.writeFileSync(rotatedFile(dir, 1), Buffer.concat([Buffer.from(`${good(5)}\n{"id":"a","ts":"t","type":"T","x":"`), Buffer.from([0xc3, 0xff, 0xe2, 0x82]), Buffer.from(`"}\n\u0000\u0000\n${good(6)}\r`)]));
  fs.writeFileSync(path.join(dir, EVENTS_FILE), `${good(7)}\n{"id":"torn`);
  const expected = await readlineLines(dir);
  assert.equal(expected.events.length, 8);
  assert.equal(expected.corrupt.length, 8);
  // Every small size, so a read ends at each place in a line (between \r and \n too) at least once.
  for (const chunkBytes of [...Array.from({ length: 80 }, (_, i) => i + 1), 1000, 4099, 1 << 20]) {
    const events: unknown[] = [];
    const folded = await foldEvents(dir, (acc: unknown[], e) => { acc.push(e); return acc; }, events, { chunkBytes });
    assert.deepEqual(folded.state, expected.events, `chunk ${chunkBytes}`);
    assert.deepEqual(folded.corrupt, expected.corrupt, `chunk ${chunkBytes}`);
  }
});

test('a fast path folds runs of whole lines; the rest are parsed and reported, numbered as before', async () => {
  const dir = tmp();
  const lines = [JSON.stringify(ev(1)), 'garbage', JSON.stringify(ev(2)), JSON.stringify(ev(4)), 'bad', JSON.stringify(ev(5)), JSON.stringify(ev(6))];
  fs.writeFileSync(path.join(dir, EVENTS_FILE), lines.join('\n') + '\n');
  const runs: number[][] = [];
  const parsed: unknown[] = [];
  const result = await scanEvents(dir, {
    // Folds the lines with an even `n` that follow one another.
    fast: (b, text, start, folded) => {
      const run: number[] = [];
      let at = start;
      for (let end = text.indexOf('\n', at); end !== -1; end = text.indexOf('\n', at)) {
        assert.equal(text.slice(at, end), b.toString('latin1', at, end));
        const n = /"n":(\d+)/.exec(text.slice(at, end))?.[1];
        if (n === undefined || Number(n) % 2 !== 0) break;
        run.push(Number(n));
        at = end + 1;
      }
      if (run.length > 0) runs.push(run);
      folded.end = at;
      return run.length;
    },
    event: (e) => parsed.push(e.n),
  }, { chunkBytes: 64 });
  assert.deepEqual(runs.flat(), [2, 4, 6]);
  assert.deepEqual(parsed, [1, 5]);
  assert.deepEqual(result.corrupt.map((c) => c.line), [2, 5]);
  assert.equal(result.corruptCount, 2);
});

test('every reader breaks lines alike (\\n, \\r\\n, a lone \\r): the same events, the same corrupt line numbers', async () => {
  const dir = tmp();
  const [a, b, c] = [ev(1), ev(2), ev(3)];
  fs.writeFileSync(path.join(dir, EVENTS_FILE), `${JSON.stringify(a)}\r${JSON.stringify(b)}\r\nnot json\n${JSON.stringify(c)}\rtorn{`);
  const whole = readEvents(dir);
  assert.deepEqual(ns(whole.events), [1, 2, 3]);
  assert.deepEqual(ns([...eventsNewestFirst(dir)]), [3, 2, 1]);
  const scanned = await foldEvents(dir, (acc: number[], e) => [...acc, e.n as number], []);
  assert.deepEqual(scanned.state, [1, 2, 3]);
  assert.deepEqual(whole.corrupt.map((x) => x.line), [3, 5]);
  assert.deepEqual(scanned.corrupt.map((x) => x.line), [3, 5]);
});
