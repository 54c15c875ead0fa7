import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { priceFor } from '../../../src/core/budget/prices';
import { readEvents } from '../../../src/core/events/log';
import { chargeModelUsage } from '../../../src/core/models/charge';
import { readUsage } from '../../../src/core/models/usageLog';
import { foldLedger, readLedger } from '../../../src/core/state/ledger';
import { makeRole } from '../../fixtures/budget-role';

const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-charge-'));

test('a model request is priced, charged to the role\'s cost and recorded for the daily spend', async () => {
  const d = dir();
  const role = makeRole('coder', { maxCostUsd: 1 });
  const now = new Date('2025-05-05T10:00:00.000Z');
  const r = await chargeModelUsage(d, role, { model: 'gpt-4o', vendor: 'copilot', inputTokens: 100_000, outputTokens: 10_000, price: priceFor('gpt-4o'), measured: 'counted', source: 'chat' }, now);
  // 100k × $2.5/M + 10k × $10/M = $0.25 + $0.10
  assert.equal(r.costUsd.toFixed(4), '0.3500');
  assert.equal(r.chargedUsd, r.costUsd);
  assert.equal(r.line, 'Budget[coder]: tokens 0/200000 (0%) | shell 0/100 (0%) | cost $0.35/$1.00 (35%) → OK');
  assert.deepEqual(readUsage(d).records.map((x) => [x.ts, x.model, x.vendor, x.inputTokens, x.outputTokens, x.estimated, x.role]),
    [['2025-05-05T10:00:00.000Z', 'gpt-4o', 'copilot', 100_000, 10_000, false, 'coder']]);
  const ev = readEvents(d).events.find((e) => e.type === 'ModelUsage')!;
  assert.deepEqual([ev.model, ev.inputTokens, ev.outputTokens], ['gpt-4o', 100_000, 10_000]);
  assert.equal((await foldLedger(d))!.usage.costUsd, readLedger(d)!.usage.costUsd, 'the ledger can be rebuilt from the log');
});

test('input already charged by the tool path is billed once; the daily spend keeps the full cost', async () => {
  const d = dir();
  const role = makeRole('coder');
  const price = { inputPerMTok: 10, outputPerMTok: 0, estimated: false };
  const r = await chargeModelUsage(d, role, { model: 'm', inputTokens: 1000, billedInputTokens: 400, outputTokens: 0, price, measured: 'counted', source: 'chat' });
  assert.equal(r.costUsd, 0.01);
  assert.equal(r.chargedUsd, 0.004);
  assert.equal(readUsage(d).records[0]!.costUsd, 0.01);
  assert.equal(readLedger(d)!.usage.costUsd, 0.004);
});

test('an unknown model uses the fallback price, marked estimated (~$) in the budget and the record', async () => {
  const d = dir();
  const r = await chargeModelUsage(d, makeRole('coder'), { model: 'scripted-a', inputTokens: 1_000_000, outputTokens: 0, price: priceFor('scripted-a'), measured: 'counted', source: 'chat' });
  assert.equal(r.costUsd, 3);
  assert.equal(r.status.costEstimated, true);
  assert.match(r.line, /cost ~\$3\.00\/\$5\.00 \(60%\)/);
  assert.equal(readUsage(d).records[0]!.estimated, true);
});

test('crossing the cost thresholds emits BudgetWarning, then BudgetExhausted, once each', async () => {
  const d = dir();
  const role = makeRole('tiny', { maxCostUsd: 0.1 });
  const price = { inputPerMTok: 1000, outputPerMTok: 0, estimated: false };
  const types: string[] = [];
  for (let i = 0; i < 6; i++) {
    const r = await chargeModelUsage(d, role, { model: 'm', inputTokens: 20, outputTokens: 0, price, measured: 'reported', source: 'chat' });
    types.push(...r.events.filter((e) => e.type !== 'ModelUsage').map((e) => `${e.type}:${String(e.dimension)}`));
  }
  assert.deepEqual(types, ['BudgetWarning:cost', 'BudgetExhausted:cost']);
});
