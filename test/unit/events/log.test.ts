import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { newEventId, nowIso } from '../../../src/core/events/ids';
import { EVENTS_FILE, KEEP_ROTATED, MAX_LINES, appendEvents, countLines, foldEvents, readEvents, rotatedFile } from '../../../src/core/events/log';
import type { AlfredEvent, EventType } from '../../../src/core/events/types';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-log-'));
const ev = (n: number, type: EventType = 'ToolCall'): AlfredEvent => ({ id: newEventId(), ts: nowIso(), type, session: 's', role: 'coder', n });
const ns = (events: AlfredEvent[]) => events.map((e) => e.n);

test('append and read back, one JSON object a line', () => {
  const dir = tmp();
  assert.equal(appendEvents(dir, [ev(1), ev(2)]), 2);
  assert.equal(appendEvents(dir, [ev(3, 'PolicyViolation')], 2), 3);
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
  while (lines < MAX_LINES) lines = appendEvents(dir, Array.from({ length: 100 }, () => ev(++n)), lines);
  assert.equal(lines, MAX_LINES);
  assert.equal(fs.existsSync(rotatedFile(dir, 1)), false);
  assert.equal(countLines(path.join(dir, EVENTS_FILE)), MAX_LINES);
  // One more line rotates.
  lines = appendEvents(dir, [ev(++n)], lines);
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
