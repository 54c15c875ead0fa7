import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { appendToSpool, readNewCopilotUsage, SPOOL_PLACE_FILE } from '../../../src/core/usage/copilotSpool';
import type { ModelUsageRecord } from '../../../src/core/usage/types';

function setup(): { state: string; spool: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-spool-'));
  const state = path.join(dir, 'state');
  fs.mkdirSync(state);
  return { state, spool: path.join(dir, 'usage', 'copilot-otel.jsonl') };
}

const rec = (id: string, sessionId: string, inputTokens = 100): ModelUsageRecord => ({
  id, source: 'copilot-otel', sessionId, model: 'gpt-4o', inputTokens, outputTokens: 10, cachedInputTokens: 0,
  cacheCreationInputTokens: 0, reasoningTokens: 0, at: '2026-12-01T10:00:00.000Z', measured: true,
});

test('a workspace reads only its own sessions\' records, each once, from when it first saw a session', async () => {
  const { state, spool } = setup();
  appendToSpool(spool, [rec('before', 'S1')]);
  assert.deepEqual((await readNewCopilotUsage(state, spool)).records, [], 'no session known: nothing is read');
  assert.deepEqual((await readNewCopilotUsage(state, spool, 'S1')).records, [], 'what was spent before the session was seen here is not read');
  appendToSpool(spool, [rec('a', 'S1'), rec('b', 'OTHER'), rec('c', 'S1')]);
  assert.deepEqual((await readNewCopilotUsage(state, spool)).records.map((r) => r.id), ['a', 'c']);
  assert.deepEqual((await readNewCopilotUsage(state, spool, 'S1')).records, []);
  appendToSpool(spool, [rec('d', 'S2')]);
  assert.deepEqual((await readNewCopilotUsage(state, spool, 'S2')).records.map((r) => r.id), ['d'], 'a session joining reads its records appended since the last read');
  appendToSpool(spool, [rec('e', 'S2'), rec('f', 'S1')]);
  assert.deepEqual((await readNewCopilotUsage(state, spool)).records.map((r) => r.id), ['e', 'f']);
});

test('a spool created after the session was seen is read from its start; torn and foreign lines are skipped', async () => {
  const { state, spool } = setup();
  fs.rmSync(spool, { force: true });
  assert.deepEqual((await readNewCopilotUsage(state, spool, 'S1')).records, []);
  fs.appendFileSync(spool, `${JSON.stringify(rec('a', 'S1'))}\n{"torn\n${JSON.stringify({ id: 'x', sessionId: 'S1', model: 'm', inputTokens: -5 })}\n`);
  appendToSpool(spool, [rec('b', 'S1')]);
  const read = await readNewCopilotUsage(state, spool);
  assert.deepEqual(read.records.map((r) => r.id), ['a', 'b']);
  assert.equal(read.skipped, 2);
});

test('a rotated spool: the rest of the old file, then the new one, nothing twice', async () => {
  const { state, spool } = setup();
  await readNewCopilotUsage(state, spool, 'S1');
  appendToSpool(spool, [rec('a', 'S1')]);
  assert.deepEqual((await readNewCopilotUsage(state, spool)).records.map((r) => r.id), ['a']);
  appendToSpool(spool, [rec('b', 'S1')]);
  fs.renameSync(spool, `${spool}.1`);
  appendToSpool(spool, [rec('c', 'S1')]);
  assert.deepEqual((await readNewCopilotUsage(state, spool)).records.map((r) => r.id), ['b', 'c']);
  assert.deepEqual((await readNewCopilotUsage(state, spool)).records, []);
});

test('sessions added by hooks at once are all kept (the list is updated under the lock)', async () => {
  const { state, spool } = setup();
  const script = `
    const { readNewCopilotUsage } = require(${JSON.stringify(path.resolve('src/core/usage/copilotSpool.ts'))});
    readNewCopilotUsage(process.argv[1], process.argv[2], process.argv[3]).then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });`;
  const runs = Array.from({ length: 8 }, (_, i) => new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script, state, spool, `S${i}`], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (code) => resolve(code ?? 1));
  }));
  assert.deepEqual(await Promise.all(runs), [0, 0, 0, 0, 0, 0, 0, 0]);
  const place = JSON.parse(fs.readFileSync(path.join(state, SPOOL_PLACE_FILE), 'utf8')) as { sessions: string[] };
  assert.deepEqual([...place.sessions].sort(), ['S0', 'S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7']);
});

test('a hook of a known session with nothing appended writes nothing (the hook path stays read-only)', async () => {
  const { state, spool } = setup();
  await readNewCopilotUsage(state, spool, 'S1');
  appendToSpool(spool, [rec('a', 'S1')]);
  assert.deepEqual((await readNewCopilotUsage(state, spool, 'S1')).records.map((r) => r.id), ['a']);
  const file = path.join(state, SPOOL_PLACE_FILE);
  const written = fs.statSync(file).mtimeMs;
  fs.utimesSync(file, new Date(0), new Date(0));
  assert.deepEqual((await readNewCopilotUsage(state, spool, 'S1')).records, []);
  assert.deepEqual((await readNewCopilotUsage(state, spool)).records, []);
  assert.equal(fs.statSync(file).mtimeMs, 0, `rewritten (was ${written})`);
  appendToSpool(spool, [rec('b', 'S1')]);
  assert.deepEqual((await readNewCopilotUsage(state, spool, 'S1')).records.map((r) => r.id), ['b']);
  assert.notEqual(fs.statSync(file).mtimeMs, 0, 'a read that moved on is kept');
});
