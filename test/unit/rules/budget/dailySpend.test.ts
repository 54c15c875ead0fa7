import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { addToDay, dailySpendStatus, spentToday } from '../../../../src/core/rules/budget/dailySpend';
import { EVENTS_FILE, rotatedFile } from '../../../../src/core/base/events/format';
import type { AlfredEvent } from '../../../../src/core/base/events/types';

let n = 0;
const ev = (ts: string, type: string, charge?: object): AlfredEvent =>
  ({ id: `e${n++}`, ts, type, session: 's', role: 'coder', ...(charge ? { charge } : {}) }) as AlfredEvent;
const lines = (events: AlfredEvent[]) => events.map((e) => JSON.stringify(e)).join('\n') + '\n';
const NOW = new Date('2025-03-02T15:00:00Z');

test('spend today sums the priced charges of today\'s events only, across sessions and roles', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-spend-'));
  // Yesterday's events sit in the rotated file and the start of the current one.
  fs.writeFileSync(rotatedFile(dir, 1), lines([ev('2025-03-01T10:00:00Z', 'ToolCall', { costUsd: 9 })]));
  fs.writeFileSync(path.join(dir, EVENTS_FILE), lines([
    ev('2025-03-01T23:59:59Z', 'ToolCall', { costUsd: 5 }),
    ev('2025-03-02T00:00:00Z', 'ToolCall', { tokens: 100, costUsd: 0.25 }),
    ev('2025-03-02T01:00:00Z', 'ToolCall', { shell: 1 }),
    ev('2025-03-02T02:00:00Z', 'ModelUsage', { costUsd: 0.5, estimated: true }),
    ev('2025-03-02T03:00:00Z', 'BudgetReset'),
  ]) + '{corrupt line\n');
  const spent = spentToday(dir, NOW);
  assert.deepEqual({ ...spent, usd: Math.round(spent.usd * 100) / 100 }, { day: '2025-03-02', usd: 0.75, estimated: true, charges: spent.charges });
  assert.ok(spent.charges >= 2);
});

test('an empty state folder has spent nothing', () => {
  assert.deepEqual(spentToday(fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-spend-')), NOW), { day: '2025-03-02', usd: 0, estimated: false, charges: 0 });
});

test('live events add to today, not to another day', () => {
  const today = { day: '2025-03-02', usd: 1, estimated: false, charges: 1 };
  assert.equal(addToDay(today, ev('2025-03-02T09:00:00Z', 'ToolCall', { costUsd: 0.5 })).usd, 1.5);
  assert.equal(addToDay(today, ev('2025-03-03T00:00:01Z', 'ToolCall', { costUsd: 0.5 })).usd, 1);
});

test('the daily gauge: no cap set, then OK, WARNING from 80%, EXHAUSTED from 100%', () => {
  const spent = (usd: number) => ({ day: 'd', usd, estimated: false, charges: 1 });
  assert.deepEqual(dailySpendStatus(spent(3), 0), { day: 'd', usd: 3, estimated: false, charges: 1, capUsd: null, percent: null, signal: 'OK' });
  assert.equal(dailySpendStatus(spent(3), undefined).capUsd, null);
  assert.deepEqual([1, 4, 5, 7].map((u) => dailySpendStatus(spent(u), 5)).map((s) => [s.percent, s.signal]),
    [[20, 'OK'], [80, 'WARNING'], [100, 'EXHAUSTED'], [140, 'EXHAUSTED']]);
});
