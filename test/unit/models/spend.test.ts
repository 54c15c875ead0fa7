import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { dueNotices, frugalityNote, spendOn, spendStatus, utcDay, type UsageRecord } from '../../../src/core/models/spend';
import { appendEvents } from '../../../src/core/base/events/append';
import { appendUsage, dailySpend, readUsage, takeSpendNotices, USAGE_FILE } from '../../../src/core/models/usageLog';

const rec = (ts: string, costUsd: number, estimated = false): UsageRecord => ({
  ts, model: 'm', inputTokens: 1, outputTokens: 1, costUsd, estimated, measured: 'counted', source: 'test',
});

test('the day is the UTC day', () => {
  assert.equal(utcDay('2025-03-01T23:59:59.999Z'), '2025-03-01');
  assert.equal(utcDay('2025-03-01T23:30:00-02:00'), '2025-03-02', 'a local evening can be the next UTC day');
  assert.equal(utcDay(new Date(Date.UTC(2025, 0, 31, 0, 0, 0))), '2025-01-31');
});

test('daily spend is the sum of that UTC day\'s priced records, estimated when any was', () => {
  const records = [rec('2025-03-01T00:00:00.000Z', 0.25), rec('2025-03-01T12:00:00.000Z', 0.5, true), rec('2025-02-28T23:59:59.999Z', 9), rec('2025-03-02T00:00:00.000Z', 7)];
  assert.deepEqual(spendOn(records, '2025-03-01'), { day: '2025-03-01', usd: 0.75, estimated: true, records: 2 });
  assert.deepEqual(spendOn(records, '2025-02-28'), { day: '2025-02-28', usd: 9, estimated: false, records: 1 });
});

test('levels: off without a cap, warning from 80%, critical from 100%', () => {
  const day = (usd: number) => ({ day: 'd', usd, estimated: false, records: 1 });
  assert.equal(spendStatus(day(5), 0).level, 'off');
  assert.deepEqual([0.79, 0.8, 0.99, 1, 1.5].map((u) => spendStatus(day(u), 1).level), ['ok', 'warning', 'warning', 'critical', 'critical']);
  assert.equal(spendStatus(day(0.29 * 3), 3).percent, 29, 'float noise does not lose a percent');
});

test('each notice is given once a day; jumping past 100% gives the critical one only', () => {
  const at = (usd: number, d = 'd1') => spendStatus({ day: d, usd, estimated: false, records: 1 }, 10);
  let r = dueNotices(undefined, at(8));
  assert.deepEqual(r.notices, ['warning']);
  r = dueNotices(r.noticed, at(9));
  assert.deepEqual(r.notices, []);
  r = dueNotices(r.noticed, at(10));
  assert.deepEqual(r.notices, ['critical']);
  r = dueNotices(r.noticed, at(12));
  assert.deepEqual(r.notices, []);
  assert.deepEqual(dueNotices(r.noticed, at(8, 'd2')).notices, ['warning'], 'a new day warns again');
  assert.deepEqual(dueNotices(undefined, at(11)).notices, ['critical']);
  assert.deepEqual(dueNotices(dueNotices(undefined, at(11)).noticed, at(11)).notices, []);
});

test('the frugality note names the spend and the cap', () => {
  assert.match(frugalityNote(spendStatus({ day: 'd', usd: 2.5, estimated: false, records: 1 }, 2)), /\$2\.50 has reached the daily cap of \$2\.00\. Be frugal/);
});

test('usage.jsonl: appended, read per day, corrupt lines skipped and reported', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-usage-'));
  appendUsage(dir, rec('2025-03-01T10:00:00.000Z', 0.4));
  fs.appendFileSync(path.join(dir, USAGE_FILE), '{"ts":"2025-03-01T11:00:00.000Z","model":\n');
  appendUsage(dir, rec('2025-03-01T12:00:00.000Z', 0.6));
  appendUsage(dir, rec('2025-03-02T12:00:00.000Z', 5));
  const { records, corrupt } = readUsage(dir, '2025-03-01');
  assert.equal(records.length, 2);
  assert.deepEqual(corrupt.map((c) => c.line), [2]);
});

test('usage.jsonl: a record appended after a line a killed writer left torn (no newline) is kept', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-usage-'));
  fs.writeFileSync(path.join(dir, USAGE_FILE), '{"ts":"2025-03-01T11:00:00.000Z","model":"m","co');
  appendUsage(dir, rec('2025-03-01T12:00:00.000Z', 0.6));
  const { records, corrupt } = readUsage(dir);
  assert.deepEqual(records.map((r) => [r.ts, r.costUsd]), [['2025-03-01T12:00:00.000Z', 0.6]]);
  assert.deepEqual(corrupt.map((c) => c.line), [1]);
});

test('the daily spend is every charge of the day in the event log, with notices once a day', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-usage-'));
  const charge = (ts: string, costUsd: number, type: 'ToolCall' | 'ModelUsage' = 'ToolCall') => appendEvents(dir, [{
    id: `${ts}-${costUsd}`, ts, type, session: 's', role: 'coder', charge: { costUsd },
  }]);
  charge('2025-02-28T12:00:00.000Z', 5);
  charge('2025-03-01T10:00:00.000Z', 0.4);
  charge('2025-03-01T12:00:00.000Z', 0.6, 'ModelUsage');
  const now = new Date('2025-03-01T20:00:00.000Z');
  const s = dailySpend(dir, 1.25, now);
  assert.equal(Math.round(s.usd * 100) / 100, 1);
  assert.equal(s.percent, 80);
  assert.equal(s.level, 'warning');
  assert.deepEqual((await takeSpendNotices(dir, 1.25, now)).notices, ['warning']);
  assert.deepEqual((await takeSpendNotices(dir, 1.25, now)).notices, [], 'once a day, remembered on disk');
  charge('2025-03-01T21:00:00.000Z', 0.25);
  assert.deepEqual((await takeSpendNotices(dir, 1.25, now)).notices, ['critical']);
  assert.deepEqual((await takeSpendNotices(dir, 0, now)).notices, [], 'no cap, no notice');
});
