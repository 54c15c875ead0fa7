import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { FileTail, type TailState } from '../../../src/core/usage/tail';

function tempFile(name = 'otel.jsonl'): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-tail-')), name);
}
const append = (file: string, text: string) => fs.appendFileSync(file, text);
const linesOf = (tail: FileTail) => tail.read().lines;

test('only what was appended since the last read, each complete line once', () => {
  const file = tempFile();
  fs.writeFileSync(file, 'a\nb\n');
  const tail = new FileTail(file);
  assert.deepEqual(tail.read(), { lines: ['a', 'b'], event: 'read', more: false, oversized: 0 });
  assert.deepEqual(linesOf(tail), []);
  append(file, 'c\n');
  append(file, 'd\n');
  assert.deepEqual(linesOf(tail), ['c', 'd']);
  assert.deepEqual(linesOf(tail), []);
});

test('appends while reading: a partial last line waits for its newline', () => {
  const file = tempFile();
  fs.writeFileSync(file, '{"n":1}\n{"n":');
  const tail = new FileTail(file);
  assert.deepEqual(linesOf(tail), ['{"n":1}']);
  assert.equal(tail.state!.offset, 8);
  append(file, '2');
  assert.deepEqual(linesOf(tail), []);
  append(file, '}\n{"n":3}\n');
  assert.deepEqual(linesOf(tail), ['{"n":2}', '{"n":3}']);
  assert.equal(tail.state!.offset, fs.statSync(file).size);
});

test('CRLF line ends lose their CR; blank lines are passed over', () => {
  const file = tempFile();
  fs.writeFileSync(file, 'one\r\n\r\n\ntwo\r\nthr');
  const tail = new FileTail(file);
  assert.deepEqual(linesOf(tail), ['one', 'two']);
  append(file, 'ee\r\nfour\r');
  assert.deepEqual(linesOf(tail), ['three'], 'a CR is part of the line until its LF comes');
  append(file, 'x\r\n');
  assert.deepEqual(linesOf(tail), ['four\rx'], 'a CR inside a line is content');
});

test('an empty file: nothing, and no first line to remember yet', () => {
  const file = tempFile();
  fs.writeFileSync(file, '');
  const tail = new FileTail(file);
  assert.deepEqual(tail.read(), { lines: [], event: 'read', more: false, oversized: 0 });
  const st = fs.statSync(file, { bigint: true });
  assert.deepEqual(tail.state, { dev: String(st.dev), ino: String(st.ino), offset: 0 });
  append(file, 'x\n');
  assert.deepEqual(linesOf(tail), ['x']);
  // SHA-256 of "x\n", the first line with its newline.
  assert.deepEqual(tail.state!.head, { bytes: 2, sha256: '73cb3858a687a8494ca3323053016282f3dad39d42cf62ca4e79dda2aac7d9ac' });
});

test('the state is plain JSON: a new tail from the persisted state continues exactly there', () => {
  const file = tempFile();
  fs.writeFileSync(file, 'a\nb\npart');
  const first = new FileTail(file);
  assert.deepEqual(linesOf(first), ['a', 'b']);
  const saved = JSON.parse(JSON.stringify(first.state)) as TailState;
  append(file, 'ial\nc\n');
  const second = new FileTail(file, saved);
  assert.deepEqual(linesOf(second), ['partial', 'c']);
});

test('truncated: read again from the start', () => {
  const file = tempFile();
  fs.writeFileSync(file, 'old 1\nold 2\n');
  const tail = new FileTail(file);
  linesOf(tail);
  fs.truncateSync(file, 0);
  append(file, 'new\n');
  assert.deepEqual(tail.read(), { lines: ['new'], event: 'truncated', more: false, oversized: 0 });
});

test('replaced in place by longer content (same inode, another first line): read from the start', () => {
  const file = tempFile();
  fs.writeFileSync(file, 'first\n');
  const tail = new FileTail(file);
  linesOf(tail);
  fs.writeFileSync(file, 'another first line\nsecond\n'); // O_TRUNC then write: same inode
  assert.deepEqual(tail.read(), { lines: ['another first line', 'second'], event: 'rotated', more: false, oversized: 0 });
});

test('rotated by rename: the rest of the old file once (never from its start), then the new file from 0', () => {
  const file = tempFile();
  fs.writeFileSync(file, 'old 1\n');
  const tail = new FileTail(file);
  assert.deepEqual(linesOf(tail), ['old 1']);
  append(file, 'old 2\nold 3 partial');
  fs.renameSync(file, `${file}.1`);
  fs.writeFileSync(file, 'new 1\n');
  assert.deepEqual(tail.read(), { lines: ['old 2', 'new 1'], event: 'rotated', more: false, oversized: 0 });
  append(`${file}.1`, '\nold 4\n');
  append(file, 'new 2\n');
  assert.deepEqual(tail.read(), { lines: ['new 2'], event: 'read', more: false, oversized: 0 }, 'the rotated file is not read again');
});

test('rotated away and deleted: the new file from 0', () => {
  const file = tempFile();
  fs.writeFileSync(file, 'old\n');
  const tail = new FileTail(file);
  linesOf(tail);
  fs.renameSync(file, `${file}.1`);
  fs.rmSync(`${file}.1`);
  fs.writeFileSync(file, 'fresh\n');
  assert.deepEqual(tail.read().lines, ['fresh']);
});

test('a file that disappears: nothing, the position kept; once moved away its last lines are still read', () => {
  const file = tempFile();
  const tail = new FileTail(file);
  assert.deepEqual(tail.read(), { lines: [], event: 'missing', more: false, oversized: 0 });
  assert.equal(tail.state, undefined);
  fs.writeFileSync(file, 'a\n');
  assert.deepEqual(linesOf(tail), ['a']);
  append(file, 'b\n');
  fs.renameSync(file, `${file}-2026-12-01`);
  assert.deepEqual(tail.read(), { lines: ['b'], event: 'missing', more: false, oversized: 0 });
  assert.deepEqual(tail.read(), { lines: [], event: 'missing', more: false, oversized: 0 });
  fs.writeFileSync(file, 'c\n');
  assert.deepEqual(tail.read(), { lines: ['c'], event: 'rotated', more: false, oversized: 0 });
});

test('from the end: only lines appended after the first read, a line being written kept whole', () => {
  const file = tempFile();
  fs.writeFileSync(file, 'history 1\nhistory 2\nbeing wri');
  const tail = new FileTail(file, undefined, { from: 'end' });
  assert.deepEqual(linesOf(tail), []);
  append(file, 'tten\nnew\n');
  assert.deepEqual(linesOf(tail), ['being written', 'new']);
});

test('a tail from the end that finds no file reads the file that appears from its start', () => {
  const file = tempFile();
  const tail = new FileTail(file, undefined, { from: 'end' });
  linesOf(tail);
  fs.writeFileSync(file, 'first\n');
  assert.deepEqual(linesOf(tail), ['first']);
});

test('bounded reads: at most maxReadBytes a call, multi-byte characters never cut', () => {
  const file = tempFile();
  const lines = ['ñandú', 'über', 'café €', 'x'.repeat(9), '日本語'];
  fs.writeFileSync(file, lines.map((l) => l + '\n').join(''));
  const tail = new FileTail(file, undefined, { maxReadBytes: 16, maxLineBytes: 16 });
  const got: string[] = [];
  const calls: boolean[] = [];
  for (let i = 0; i < 10; i++) {
    const r = tail.read();
    got.push(...r.lines);
    calls.push(r.more);
    if (!r.more) break;
  }
  assert.deepEqual(got, lines);
  assert.deepEqual(calls, [true, true, true, false]);
});

test('a line longer than maxLineBytes is skipped whole, even across reads, and counted', () => {
  const file = tempFile();
  fs.writeFileSync(file, 'ok 1\n' + 'y'.repeat(40));
  const tail = new FileTail(file, undefined, { maxLineBytes: 16, maxReadBytes: 16 });
  const reads = [tail.read(), tail.read(), tail.read(), tail.read()];
  assert.deepEqual(reads.map((r) => [r.lines, r.oversized, r.more]), [[['ok 1'], 0, true], [[], 1, true], [[], 0, true], [[], 0, false]]);
  append(file, 'y'.repeat(5) + '\nok 2\n');
  assert.deepEqual(tail.read(), { lines: ['ok 2'], event: 'read', more: false, oversized: 0 });
});
