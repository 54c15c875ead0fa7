/**
 * Where each Claude Code transcript was left (src/core/usage/claudeIngest.ts), as the hook server
 * reads it: the place is saved without a synchronous rename on the event loop, and reads of one
 * state folder made at once in one process each start where the one before saved.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mock, test } from 'node:test';
import { readNewClaudeUsage, TRANSCRIPTS_FILE } from '../../../src/core/usage/claudeIngest';

const FIXTURE = fs.readFileSync(path.resolve(__dirname, '../../fixtures/usage/claude-transcript.jsonl'), 'utf8');
/** The fixture's lines up to and with its first completed API message (its first `tool_use`). */
const FIRST_MESSAGE = `${FIXTURE.split('\n').slice(0, 5).join('\n')}\n`;

const tempDir = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-claude-ingest-'));

test('the place is saved by an asynchronous rename: the event loop never waits on that disk write', async () => {
  const dir = tempDir();
  const transcript = path.join(dir, 'session.jsonl');
  fs.writeFileSync(transcript, FIRST_MESSAGE);
  const renameSync = mock.method(fs, 'renameSync');
  try {
    const records = await readNewClaudeUsage(dir, transcript);
    assert.deepEqual(records.map((r) => [r.id, r.outputTokens]), [['claude:msg_01Lq8CkZ3vN6xW2pHf4TgR7a', 231]]);
    assert.equal(renameSync.mock.callCount(), 0);
  } finally {
    renameSync.mock.restore();
  }
  assert.deepEqual(Object.keys(JSON.parse(fs.readFileSync(path.join(dir, TRANSCRIPTS_FILE), 'utf8')) as object), [transcript]);
  assert.deepEqual(fs.readdirSync(dir).sort(), [TRANSCRIPTS_FILE, 'session.jsonl'], 'no temporary file left');
  assert.deepEqual(await readNewClaudeUsage(dir, transcript), [], 'read from where it was left');
});

test('transcripts of one state folder read at once keep every place: each read starts where the last saved', async () => {
  const dir = tempDir();
  const transcripts = Array.from({ length: 4 }, (_, i) => path.join(dir, `session-${i}.jsonl`));
  for (const t of transcripts) fs.writeFileSync(t, FIRST_MESSAGE);
  const first = await Promise.all(transcripts.map((t) => readNewClaudeUsage(dir, t)));
  assert.deepEqual(first.map((records) => records.length), [1, 1, 1, 1]);
  const again = await Promise.all(transcripts.map((t) => readNewClaudeUsage(dir, t)));
  assert.deepEqual(again.map((records) => records.length), [0, 0, 0, 0], 'no line read twice');
  assert.deepEqual(Object.keys(JSON.parse(fs.readFileSync(path.join(dir, TRANSCRIPTS_FILE), 'utf8')) as object).sort(), transcripts);
});
