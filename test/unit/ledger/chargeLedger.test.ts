/**
 * Every charge path books through chargeLedger: what it adds to the ledger is the `charge` field its
 * event logs, so the ledger always equals the one rebuilt from the log.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { readEvents } from '../../../src/core/base/events/read';
import { chargeModelUsage } from '../../../src/core/models/charge';
import { authorize, charge, chargeLedger, observeShell } from '../../../src/core/ledger/govern';
import { applyCharge, foldLedger } from '../../../src/core/ledger/ledgerFold';
import { newLedger, readLedger } from '../../../src/core/ledger/ledgerFormat';
import { chargeMeasured } from '../../../src/core/usage/chargeMeasured';
import type { ModelUsageRecord } from '../../../src/core/usage/types';
import { makeRole, shellGate } from '../../fixtures/budget-role';

const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-charge-ledger-'));

test('chargeLedger: the amounts as the event logs them, added to the ledger as the fold adds them', () => {
  const ledger = newLedger('coder');
  assert.deepEqual(chargeLedger(ledger, { tokens: 120, costUsd: 0.5, estimated: true }), { tokens: 120, costUsd: 0.5, estimated: true });
  assert.deepEqual(chargeLedger(ledger, { shell: 1 }), { shell: 1 });
  // The order the log has always written: tokens, shell, cost, estimated.
  assert.deepEqual(Object.keys(chargeLedger(ledger, { estimated: true, costUsd: 1, shell: 0, tokens: 0 })), ['tokens', 'shell', 'costUsd', 'estimated']);
  // A negative or non-finite amount charges nothing; no cost, nothing estimated.
  assert.deepEqual(chargeLedger(ledger, { tokens: -5, shell: Number.NaN, costUsd: -1, estimated: true }), { tokens: 0, shell: 0, costUsd: 0 });
  assert.deepEqual(ledger.usage, { tokens: 120, shell: 1, costUsd: 1.5 });
  assert.equal(ledger.costEstimated, true);

  const folded = newLedger('coder');
  for (const c of [{ tokens: 120, costUsd: 0.5, estimated: true }, { shell: 1 }, { tokens: 0, shell: 0, costUsd: 1, estimated: true }]) applyCharge(folded, c);
  assert.deepEqual(folded.usage, ledger.usage);
});

test('every charge path: the ledger equals its rebuild from the log, and each event logs what it charged', async () => {
  const d = dir();
  const role = makeRole('coder', { maxCostUsd: 100 });
  const price = { inputPerMTok: 2, outputPerMTok: 8, estimated: true };
  const measured: ModelUsageRecord = {
    id: 'response:r1', source: 'copilot-otel', model: 'gpt-4o', inputTokens: 1000, outputTokens: 100, cachedInputTokens: 0,
    cacheCreationInputTokens: 0, reasoningTokens: 0, at: '2026-01-01T00:00:00.000Z', measured: true,
  };
  const paths: Array<[string, () => Promise<unknown>]> = [
    ['a tool call decided', () => authorize(d, { role, tool: 'run_in_terminal', source: 'tool', decide: shellGate })],
    ['a tool\'s output', () => charge(d, { role, tool: 'read_file', tokens: 300, costUsd: 0.0009, estimated: true, source: 'tool' })],
    ['a terminal\'s command', () => observeShell(d, { role, command: 'ls', exitCode: 0, source: 'terminal' })],
    ['a model request (@alfred, the agent loop)', () => chargeModelUsage(d, role, { model: 'm', inputTokens: 1000, billedInputTokens: 600, outputTokens: 50, price, measured: 'counted', source: 'chat' })],
    ['a measured request', () => chargeMeasured(d, role, [measured])],
  ];
  for (const [name, run] of paths) {
    await run();
    const ledger = readLedger(d)!;
    const folded = (await foldLedger(d))!;
    assert.deepEqual([folded.usage, folded.costEstimated], [ledger.usage, ledger.costEstimated], `after ${name}`);
  }
  const charges = readEvents(d).events.filter((e) => e.charge !== undefined).map((e) => [e.type, e.charge]);
  assert.deepEqual(charges, [
    ['ToolCall', { shell: 1 }],
    ['ToolCall', { tokens: 300, costUsd: 0.0009, estimated: true }],
    ['ShellExecution', { shell: 1 }],
    // 600 billed input tokens at $2/M and 50 output at $8/M.
    ['ModelUsage', { costUsd: 0.0016, estimated: true }],
    // gpt-4o's own price from the table: not estimated.
    ['ModelUsage', { costUsd: (1000 * 2.5 + 100 * 10) / 1e6 }],
  ]);
});

test('a model request priced below zero charges nothing, in the ledger as in its rebuild from the log', async () => {
  const d = dir();
  const role = makeRole('coder');
  await charge(d, { role, tool: 'read_file', tokens: 10, costUsd: 0.25, estimated: false, source: 'tool' });
  const r = await chargeModelUsage(d, role, { model: 'm', inputTokens: 1000, outputTokens: 0, price: { inputPerMTok: -100, outputPerMTok: 0, estimated: false }, measured: 'counted', source: 'chat' });
  assert.equal(r.status.dimensions.cost.used, 0.25);
  assert.equal(readLedger(d)!.usage.costUsd, 0.25);
  assert.equal((await foldLedger(d))!.usage.costUsd, 0.25);
});
