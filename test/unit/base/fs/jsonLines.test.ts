import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { appendJsonLines, readJsonLines } from '../../../../src/core/base/fs/jsonLines';
import { appendTrace, readTraces, traceFile } from '../../../../src/core/usage/traces/log';

const tempDir = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-jsonl-'));
const anyObject = (v: unknown) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : 'not an object');

test('appends after a torn last line start on a fresh line: only the torn line is lost', () => {
  const file = path.join(tempDir(), 'x.jsonl');
  fs.writeFileSync(file, '{"a":1}\n{"b":');
  appendJsonLines(file, [{ c: 3 }, { d: 4 }]);
  assert.equal(fs.readFileSync(file, 'utf8'), '{"a":1}\n{"b":\n{"c":3}\n{"d":4}\n');
  const { records, corrupt } = readJsonLines(file, anyObject);
  assert.deepEqual(records, [{ a: 1 }, { c: 3 }, { d: 4 }]);
  assert.deepEqual(corrupt.map((c) => [c.file, c.line]), [[file, 2]]);
  assert.match(corrupt[0]!.message, /^not valid JSON: /);
});

test('readJsonLines: blank lines passed over, a refused value reported with its line, a missing file empty', () => {
  const dir = tempDir();
  const file = path.join(dir, 'y.jsonl');
  fs.writeFileSync(file, '{"n":1}\n\n  \n[1]\n{"n":2}\r\n{"skip":true}\n');
  const read = readJsonLines(file, anyObject, { skip: (raw) => raw.includes('"skip"') });
  assert.deepEqual(read.records, [{ n: 1 }, { n: 2 }]);
  assert.deepEqual(read.corrupt, [{ file, line: 4, message: 'not an object' }]);
  assert.deepEqual(readJsonLines(path.join(dir, 'none.jsonl'), anyObject), { records: [], corrupt: [] });
});

test('appendJsonLines creates the file 0600 and appends nothing for no records', { skip: process.platform === 'win32' }, () => {
  const file = path.join(tempDir(), 'z.jsonl');
  appendJsonLines(file, []);
  assert.equal(fs.existsSync(file), false);
  appendJsonLines(file, [{ a: 1 }]);
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
});

test('a trace appended after a torn trace line is read back (appendTrace repairs like every JSON-lines append)', async () => {
  const dir = tempDir();
  fs.writeFileSync(traceFile(dir), '{"ts":"2026-01-01T00:00:00.000Z","kind":"mo');
  await appendTrace(dir, {
    v: 1, ts: '2026-01-01T00:00:01.000Z', kind: 'decision', source: 'test', model: null, role: 'coder', session: null, latencyMs: 1, harness: 'test',
  });
  const { entries, corrupt } = readTraces(dir);
  assert.deepEqual(entries.map((e) => e.ts), ['2026-01-01T00:00:01.000Z']);
  assert.deepEqual(corrupt.map((c) => c.line), [1]);
});
