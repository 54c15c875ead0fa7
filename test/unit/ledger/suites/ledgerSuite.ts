/**
 * The ledger's transactions (ledgerStore.ts) on a backend: sessions, resets, restarts, a failing
 * function, the fold of the log, rotation. Run on the files (ledger.test.ts) and on PostgreSQL
 * (pgBackend.test.ts) with the same assertions: `freshState` gives a state folder on the backend.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { countLines } from '../../../../src/core/base/events/append';
import { EVENTS_FILE, MAX_LINES, rotatedFile } from '../../../../src/core/base/events/format';
import { readEvents } from '../../../../src/core/base/events/read';
import { foldLedger } from '../../../../src/core/ledger/ledgerFold';
import { LEDGER_FILE, readLedger, writeLedger } from '../../../../src/core/ledger/ledgerFormat';
import { recordEvents, resetSession, transact } from '../../../../src/core/ledger/ledgerStore';

const addShell = (n: number) => (l: { usage: { shell: number } }) => {
  l.usage.shell += n;
  return { events: [{ type: 'ToolCall' as const, tool: 'sh', charge: { shell: n } }], result: l.usage.shell };
};

export function ledgerSuite(freshState: () => string): void {
  test('the first session starts without RoleChanged; events are completed', async () => {
    const dir = freshState();
    const r = await transact(dir, 'coder', addShell(1));
    assert.equal(r.result, 1);
    assert.deepEqual(r.events.map((e) => e.type), ['ToolCall']);
    const [e] = r.events;
    assert.equal(e!.session, r.ledger.session);
    assert.equal(e!.role, 'coder');
    assert.match(e!.id, /^[0-9a-f-]{36}$/);
    assert.ok(!Number.isNaN(Date.parse(e!.ts)));
    const onDisk = readLedger(dir)!;
    assert.deepEqual(onDisk, r.ledger);
    assert.equal(onDisk.eventLines, 1);
    assert.deepEqual(readEvents(dir).events, r.events);
    assert.equal(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp')).length, 0, 'no temp files left');
  });

  test('a role change starts a new session with zero usage and a RoleChanged event', async () => {
    const dir = freshState();
    const first = await transact(dir, 'coder', addShell(3));
    const second = await transact(dir, 'reviewer', (l) => ({ events: [], result: { ...l.usage } }));
    assert.deepEqual(second.result, { tokens: 0, shell: 0, costUsd: 0 });
    assert.notEqual(second.ledger.session, first.ledger.session);
    assert.deepEqual(second.events.map((e) => [e.type, e.from, e.to, e.session, e.role]), [['RoleChanged', 'coder', 'reviewer', second.ledger.session, 'reviewer']]);
    // Same role again: same session, no new RoleChanged.
    const third = await transact(dir, 'reviewer', addShell(0));
    assert.equal(third.ledger.session, second.ledger.session);
    assert.deepEqual(third.events.map((e) => e.type), ['ToolCall']);
  });

  test('reset: BudgetReset event, new session, zero usage', async () => {
    const dir = freshState();
    const before = await transact(dir, 'coder', addShell(5));
    const r = await resetSession(dir, 'coder', 'user asked');
    assert.deepEqual(r.events.map((e) => [e.type, e.reason, e.previousSession]), [['BudgetReset', 'user asked', before.ledger.session]]);
    assert.deepEqual(r.events[0]!.previousUsage, { tokens: 0, shell: 5, costUsd: 0 });
    const l = readLedger(dir)!;
    assert.notEqual(l.session, before.ledger.session);
    assert.deepEqual(l.usage, { tokens: 0, shell: 0, costUsd: 0 });
    assert.equal(l.eventLines, 2);
  });

  test('usage survives restarts: it is read back from disk', async () => {
    const dir = freshState();
    await transact(dir, 'coder', addShell(2));
    const session = readLedger(dir)!.session;
    // A "restarted" process has nothing but the folder.
    const again = await transact(dir, 'coder', addShell(3));
    assert.equal(again.result, 5);
    assert.equal(again.ledger.session, session);
    assert.equal(JSON.parse(fs.readFileSync(path.join(dir, LEDGER_FILE), 'utf8')).usage.shell, 5);
  });

  test('a failing fn writes nothing', async () => {
    const dir = freshState();
    await transact(dir, 'coder', addShell(1));
    const ledgerBefore = fs.readFileSync(path.join(dir, LEDGER_FILE), 'utf8');
    await assert.rejects(transact(dir, 'coder', (l) => { l.usage.shell += 10; throw new Error('gate crashed'); }), /gate crashed/);
    assert.equal(fs.readFileSync(path.join(dir, LEDGER_FILE), 'utf8'), ledgerBefore);
    assert.equal(countLines(path.join(dir, EVENTS_FILE)), 1);
  });

  test('fold rebuilds the latest session exactly as the live ledger', async () => {
    const dir = freshState();
    await transact(dir, 'coder', addShell(1));
    await transact(dir, 'reviewer', addShell(2));
    await resetSession(dir, 'reviewer', 'again');
    for (let i = 0; i < 5; i++) {
      await transact(dir, 'reviewer', (l) => {
        l.usage.tokens += 1000 + i;
        l.usage.costUsd += 0.1 * (i + 1);
        l.costEstimated = true;
        l.signals.cost = 'WARNING';
        return {
          events: [
            { type: 'ToolCall', tool: 'read', charge: { tokens: 1000 + i, costUsd: 0.1 * (i + 1), estimated: true } },
            ...(i === 0 ? [{ type: 'BudgetWarning' as const, dimension: 'cost' }] : []),
          ],
          result: undefined,
        };
      });
    }
    await recordEvents(dir, 'reviewer', [{ type: 'ConfigWritten', file: 'x' }]);
    const live = readLedger(dir)!;
    assert.deepEqual(await foldLedger(dir), live);
    assert.equal(live.usage.tokens, 5010);
    assert.equal(live.usage.shell, 0);
  });

  test('the ledger tracks event lines so appends rotate at the limit', async () => {
    const dir = freshState();
    await transact(dir, 'coder', addShell(1));
    const l = readLedger(dir)!;
    writeLedger(dir, { ...l, eventLines: MAX_LINES }); // as if the file were full
    const r = await transact(dir, 'coder', addShell(1));
    assert.equal(r.ledger.eventLines, 1);
    assert.equal(fs.existsSync(rotatedFile(dir, 1)), true);
    assert.equal(readEvents(dir).events.length, 2);
  });

  test('a deleted ledger is rebuilt from the log without a problem report', async () => {
    const dir = freshState();
    await transact(dir, 'coder', addShell(4));
    fs.rmSync(path.join(dir, LEDGER_FILE));
    const r = await transact(dir, 'coder', addShell(1));
    assert.deepEqual(r.problems, []);
    assert.equal(r.result, 5);
    assert.equal(r.ledger.eventLines, 2);
  });
}
