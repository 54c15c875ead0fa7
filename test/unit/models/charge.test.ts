import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { priceFor } from '../../../src/core/rules/budget/prices';
import { readEvents } from '../../../src/core/base/events/read';
import { chargeModelUsage } from '../../../src/core/models/charge';
import { readUsage } from '../../../src/core/models/usageLog';
import { foldLedger } from '../../../src/core/ledger/ledgerFold';
import { readLedger } from '../../../src/core/ledger/ledgerFormat';
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

test('cached input reported by the provider is priced at the cached price, recorded apart; without a cached price, as input', async () => {
  const d = dir();
  const role = makeRole('coder', { maxCostUsd: 1 });
  // claude-sonnet-4: $3 input, $0.30 cached, $15 output per million tokens.
  const r = await chargeModelUsage(d, role, {
    model: 'claude-sonnet-4', inputTokens: 100_000, cachedInputTokens: 80_000, outputTokens: 1_000, price: priceFor('claude-sonnet-4'), measured: 'reported', source: 'chat',
  });
  // 20k × 3 + 80k × 0.3 + 1k × 15 = 60,000 + 24,000 + 15,000 (per million) = $0.099
  assert.equal(r.costUsd, 0.099);
  assert.equal(r.chargedUsd, 0.099);
  assert.equal(readUsage(d).records[0]!.cachedInputTokens, 80_000);
  assert.equal(readEvents(d).events.find((e) => e.type === 'ModelUsage')!.cachedInputTokens, 80_000);
  // gpt-4o has no cached price in the table: all input at $2.50.
  const plain = await chargeModelUsage(d, role, { model: 'gpt-4o', inputTokens: 100_000, cachedInputTokens: 80_000, outputTokens: 0, price: priceFor('gpt-4o'), measured: 'reported', source: 'chat' });
  assert.equal(plain.costUsd, 0.25);
});

test('cached input with tool results billed elsewhere: the tool results are the uncached tail, the cached prefix stays cached', async () => {
  const d = dir();
  const price = { inputPerMTok: 10, cachedInputPerMTok: 1, outputPerMTok: 0, estimated: false };
  const r = await chargeModelUsage(d, makeRole('coder'), { model: 'm', inputTokens: 1000, cachedInputTokens: 600, billedInputTokens: 700, outputTokens: 0, price, measured: 'reported', source: 'chat' });
  // Full: 400 × 10 + 600 × 1 = 4,600 per million. Charged: 100 plain + 600 cached = 1,000 + 600.
  assert.equal(r.costUsd, 0.0046);
  assert.equal(r.chargedUsd, 0.0016);
  // A cached count above the input (a provider's slip or a lie) never makes input cheaper than all cached.
  const over = await chargeModelUsage(d, makeRole('coder'), { model: 'm', inputTokens: 1000, cachedInputTokens: 5000, outputTokens: 0, price, measured: 'reported', source: 'chat' });
  assert.equal(over.costUsd, 0.001);
  assert.equal(readUsage(d).records[1]!.cachedInputTokens, 1000);
});

test('no cached tokens: the record and the event carry none', async () => {
  const d = dir();
  await chargeModelUsage(d, makeRole('coder'), { model: 'gpt-4o', inputTokens: 10, outputTokens: 1, price: priceFor('gpt-4o'), measured: 'counted', source: 'chat' });
  assert.equal('cachedInputTokens' in readUsage(d).records[0]!, false);
  assert.equal('cachedInputTokens' in readEvents(d).events.find((e) => e.type === 'ModelUsage')!, false);
});
