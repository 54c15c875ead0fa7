/**
 * A call's copy to the team's audit trail is sent after the call, waited for by no one: it must not
 * begin in the call's own turn, where it would hold up the hook server's answer.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { AlfredEvent } from '../../../../src/core/base/events/types';
import { parseTeamConfig } from '../../../../src/core/ledger/team/config';
import type { PgStore } from '../../../../src/core/ledger/team/pgStore';
import type { TeamChargeRow, TeamEventRow } from '../../../../src/core/ledger/team/rows';
import { TeamLedger } from '../../../../src/core/ledger/team/teamLedger';

test("a call's audit copy begins once the call's turn is over, and flush waits for it", async () => {
  const sent: Array<{ charges: number; events: number }> = [];
  // Only what a copy uses of the database.
  const store = {
    connect: () => Promise.resolve(),
    settle: (charges: readonly TeamChargeRow[], events: readonly TeamEventRow[]) => {
      sent.push({ charges: charges.length, events: events.length });
      return Promise.resolve(events.length);
    },
  } as unknown as PgStore;
  const ledger = new TeamLedger({
    store, config: parseTeamConfig('team = "platform"\n'), stateDir: fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-audit-copy-')),
    identity: { user: 'ana@acme.dev', repository: 'acme/app', machine: 'm', tags: [] },
  });
  const event = {
    id: 'e1', ts: new Date().toISOString(), type: 'ToolCall', session: 's', role: 'coder', phase: 'decision', tool: 'run_in_terminal', charge: { shell: 1 },
  } as unknown as AlfredEvent;
  // Queued before the copy: runs after everything the call's turn does, its promise callbacks included.
  const atTurnEnd = new Promise<number>((resolve) => setImmediate(() => resolve(sent.length)));
  ledger.settle([event], 'gpt-4.1');
  assert.equal(await atTurnEnd, 0, 'nothing was sent in the call\'s own turn');
  await ledger.flush();
  assert.deepEqual(sent, [{ charges: 1, events: 1 }]);
});

test('a decision made in the same turn as a copy waits for it: it sees the charges copied before it', async () => {
  const calls: string[] = [];
  const store = {
    connect: () => Promise.resolve(),
    settle: (_charges: readonly TeamChargeRow[], events: readonly TeamEventRow[]) => {
      calls.push('copy');
      return Promise.resolve(events.length);
    },
    decide: () => {
      calls.push('decide');
      return Promise.resolve({ refused: false, usage: new Map() });
    },
  } as unknown as PgStore;
  const ledger = new TeamLedger({
    store, config: parseTeamConfig('team = "platform"\n[[budget]]\nname = "tokens"\nperiod = "day"\nmax_context_tokens = 1000\n'),
    stateDir: fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-audit-copy-')), identity: { user: 'ana@acme.dev', repository: 'acme/app', machine: 'm', tags: [] },
  });
  const output = {
    id: 'e2', ts: new Date().toISOString(), type: 'ToolCall', session: 's', role: 'coder', phase: 'result', tool: 'read_file', charge: { tokens: 900 },
  } as unknown as AlfredEvent;
  ledger.settle([output]);
  const verdict = await ledger.authorize({ role: 'coder', tool: 'run_in_terminal', shell: 1, exempt: false });
  assert.equal(verdict.allowed, true);
  assert.deepEqual(calls, ['copy', 'decide']);
});
