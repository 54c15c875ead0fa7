/**
 * Where each Gemini CLI session file was left (src/core/usage/geminiTranscript.ts), as the hook server
 * reads it: saved without a synchronous rename on the event loop, and reads of one state folder made
 * at once in one process each start where the one before saved.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mock, test } from 'node:test';
import { GEMINI_TRANSCRIPTS_FILE, readNewGeminiUsage } from '../../../src/core/usage/geminiTranscript';

const line = (data: unknown) => `${JSON.stringify(data)}\n`;
/** A session file with one model answer and its usage (@google/gemini-cli 0.61.0's format). */
const SESSION_FILE = line({ sessionId: 's1', projectHash: 'abc', startTime: '2026-12-07T00:00:00.000Z', kind: 'main' })
  + line({ id: 'a1', timestamp: '2026-12-07T00:00:02.000Z', type: 'gemini', content: 'x', model: 'gemini-2.5-flash', tokens: { input: 1000, output: 200, cached: 0, thoughts: 50, tool: 0, total: 1250 } });

const tempDir = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-gemini-ingest-'));

test('the place is saved by an asynchronous rename: the event loop never waits on that disk write', async () => {
  const dir = tempDir();
  const transcript = path.join(dir, 'session.jsonl');
  fs.writeFileSync(transcript, SESSION_FILE);
  const renameSync = mock.method(fs, 'renameSync');
  try {
    const records = await readNewGeminiUsage(dir, transcript);
    assert.deepEqual(records.map((r) => [r.id, r.outputTokens]), [['gemini:a1', 250]]);
    assert.equal(renameSync.mock.callCount(), 0);
  } finally {
    renameSync.mock.restore();
  }
  assert.deepEqual(fs.readdirSync(dir).sort(), [GEMINI_TRANSCRIPTS_FILE, 'session.jsonl'], 'no temporary file left');
  assert.deepEqual(await readNewGeminiUsage(dir, transcript), [], 'read from where it was left');
  fs.rmSync(dir, { recursive: true, force: true });
});

test('session files of one state folder read at once keep every place: each read starts where the last saved', async () => {
  const dir = tempDir();
  const files = Array.from({ length: 4 }, (_, i) => path.join(dir, `session-${i}.jsonl`));
  for (const f of files) fs.writeFileSync(f, SESSION_FILE);
  const first = await Promise.all(files.map((f) => readNewGeminiUsage(dir, f)));
  assert.deepEqual(first.map((records) => records.length), [1, 1, 1, 1]);
  const again = await Promise.all(files.map((f) => readNewGeminiUsage(dir, f)));
  assert.deepEqual(again.map((records) => records.length), [0, 0, 0, 0], 'no line read twice');
  assert.deepEqual(Object.keys(JSON.parse(fs.readFileSync(path.join(dir, GEMINI_TRANSCRIPTS_FILE), 'utf8')) as object).sort(), files);
  fs.rmSync(dir, { recursive: true, force: true });
});
