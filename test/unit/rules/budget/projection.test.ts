/**
 * @alfred never sends a request whose projected cost would pass the cost cap; so the only request
 * that can end over it is one whose real usage exceeded its projection, and after it every request
 * is refused (EXHAUSTED).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { costCapUsd, PROJECTED_OUTPUT_TOKENS, projectRequest } from '../../../../src/core/rules/budget/projection';
import { chargeModelUsage } from '../../../../src/core/models/charge';
import { currentStatus } from '../../../../src/core/ledger/govern';
import { makeRole } from '../../../fixtures/budget-role';

/** $1 per million tokens in and out: a token costs a micro-dollar, so the sums are easy to check. */
const MICRO = { inputPerMTok: 1, outputPerMTok: 1 };
const PENNIES = { maxCostUsd: 0.01, blockAtPercent: 100 };

describe('projectRequest', () => {
  it('projects input × input price + output × output price, and sends when spent + projected stays within the cap', () => {
    const p = projectRequest({ spentUsd: 0.004, limits: PENNIES, inputTokens: 1000, outputTokens: 4096, price: MICRO });
    assert.deepEqual(p, { send: true, projectedUsd: 0.005096, spentUsd: 0.004, capUsd: 0.01 });
    // gpt-4o: 2,000 in at $2.50, 4,096 out at $10 = $0.005 + $0.04096.
    const priced = projectRequest({ spentUsd: 0, limits: { maxCostUsd: 5, blockAtPercent: 100 }, inputTokens: 2000, outputTokens: 4096, price: { inputPerMTok: 2.5, outputPerMTok: 10 } });
    assert.equal(priced.projectedUsd, 0.04596);
  });

  it('refuses a request that would pass the cap, even by a micro-dollar', () => {
    assert.deepEqual(projectRequest({ spentUsd: 0.004905, limits: PENNIES, inputTokens: 1000, outputTokens: 4096, price: MICRO }),
      { send: false, reason: 'over-cap', projectedUsd: 0.005096, spentUsd: 0.004905, capUsd: 0.01 });
  });

  it('a request landing exactly on the cap is sent (at the limit is not over it), despite float noise', () => {
    // Nine charges of $0.001 add up to 0.009000000000000001 in the ledger; with $0.001 more, 0.010000000000000002.
    let spentUsd = 0;
    for (let i = 0; i < 9; i++) spentUsd += 0.001;
    assert.equal(spentUsd + 0.001 > 0.01, true);
    assert.equal(projectRequest({ spentUsd, limits: PENNIES, inputTokens: 0, outputTokens: 1000, price: MICRO }).send, true);
    assert.equal(projectRequest({ spentUsd, limits: PENNIES, inputTokens: 1, outputTokens: 1000, price: MICRO }).send, false, 'one token more is over');
  });

  it('once the cost is at or past the cap, every request is refused, a free one too', () => {
    for (const spentUsd of [0.01, 0.0100001, 5]) {
      assert.deepEqual(projectRequest({ spentUsd, limits: PENNIES, inputTokens: 0, outputTokens: 0, price: { inputPerMTok: 0, outputPerMTok: 0 } }),
        { send: false, reason: 'exhausted', projectedUsd: 0, spentUsd, capUsd: 0.01 });
    }
  });

  it('the cap is where the budget is EXHAUSTED: max_cost_usd × block_at_percent / 100', () => {
    assert.equal(costCapUsd({ maxCostUsd: 5, blockAtPercent: 100 }), 5);
    assert.equal(costCapUsd({ maxCostUsd: 5, blockAtPercent: 90 }), 4.5);
    assert.equal(projectRequest({ spentUsd: 4.4, limits: { maxCostUsd: 5, blockAtPercent: 90 }, inputTokens: 200_000, outputTokens: 0, price: MICRO }).send, false);
    assert.equal(projectRequest({ spentUsd: 4.4, limits: { maxCostUsd: 5, blockAtPercent: 90 }, inputTokens: 100_000, outputTokens: 0, price: MICRO }).send, true);
  });

  it('a limit of $0 sends only what costs nothing', () => {
    const zero = { maxCostUsd: 0, blockAtPercent: 100 };
    assert.equal(projectRequest({ spentUsd: 0, limits: zero, inputTokens: 1, outputTokens: 0, price: MICRO }).send, false);
    assert.equal(projectRequest({ spentUsd: 0, limits: zero, inputTokens: 1000, outputTokens: 1000, price: { inputPerMTok: 0, outputPerMTok: 0 } }).send, true);
  });

  it('nonsense counts or prices never make a request look cheaper than free', () => {
    const p = projectRequest({ spentUsd: Number.NaN, limits: PENNIES, inputTokens: -5000, outputTokens: Number.POSITIVE_INFINITY, price: { inputPerMTok: -100, outputPerMTok: 1 } });
    assert.equal(p.projectedUsd, 0);
    assert.equal(p.spentUsd, 0);
    assert.equal(projectRequest({ spentUsd: 0.0099, limits: PENNIES, inputTokens: 1000, outputTokens: 1000, price: { inputPerMTok: -1000, outputPerMTok: 1 } }).send, true, 'a negative price projects $0, and $0 fits');
    assert.equal(projectRequest({ spentUsd: 0.0099, limits: PENNIES, inputTokens: 1000, outputTokens: 1000, price: { inputPerMTok: -1, outputPerMTok: 1000 } }).send, false);
  });

  it('the output is assumed at 4,096 tokens when the request sets no maximum', () => {
    assert.equal(PROJECTED_OUTPUT_TOKENS, 4096);
  });
});

describe('at most one request over the limit, ever (with the real ledger)', () => {
  const role = makeRole('pennies', { maxCostUsd: 0.01 });
  const price = { ...MICRO, estimated: false };
  const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-projection-'));

  /** One loop step: project with the counted input and the assumed output, send only when allowed, charge the real usage. */
  async function step(d: string, input: number, realOutput: number): Promise<boolean> {
    const spentUsd = currentStatus(d, role).dimensions.cost.used;
    if (!projectRequest({ spentUsd, limits: role.limits, inputTokens: input, outputTokens: PROJECTED_OUTPUT_TOKENS, price }).send) return false;
    await chargeModelUsage(d, role, { model: 'm', inputTokens: input, outputTokens: realOutput, price, measured: 'reported', source: 'chat' });
    return true;
  }

  it('requests whose real usage stays within their projection never take the cost past the cap', async () => {
    const d = dir();
    const sent: boolean[] = [];
    for (let i = 0; i < 10; i++) sent.push(await step(d, 1000, 100));
    // $0.0011 each: after 5 the spend is $0.0055, and $0.0055 + $0.005096 would pass $0.01.
    assert.deepEqual(sent, [true, true, true, true, true, false, false, false, false, false]);
    const status = currentStatus(d, role);
    assert.equal(status.dimensions.cost.used.toFixed(6), '0.005500');
    assert.equal(status.signal, 'OK');
  });

  it('many random requests within their projections: the spend never passes the cap', async () => {
    const d = dir();
    let seed = 12345;
    const next = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % n; };
    for (let i = 0; i < 60; i++) await step(d, next(3000), next(PROJECTED_OUTPUT_TOKENS + 1));
    assert.ok(currentStatus(d, role).dimensions.cost.used <= 0.01 + 1e-12, `${currentStatus(d, role).dimensions.cost.used}`);
  });

  it('a request whose real output exceeds the projection is the one that goes over; after it, EXHAUSTED and every request refused', async () => {
    const d = dir();
    assert.equal(await step(d, 1000, 100), true);
    // Projected $0.005096 on $0.0011 spent: sent; it really produced 9,000 tokens: $0.01 → $0.0111 in all.
    assert.equal(await step(d, 1000, 9000), true);
    const status = currentStatus(d, role);
    assert.equal(status.dimensions.cost.used.toFixed(4), '0.0111');
    assert.equal(status.signal, 'EXHAUSTED');
    for (const input of [1000, 1, 0]) assert.equal(await step(d, input, 0), false);
    assert.equal(projectRequest({ spentUsd: status.dimensions.cost.used, limits: role.limits, inputTokens: 0, outputTokens: 0, price: { inputPerMTok: 0, outputPerMTok: 0 } }).reason, 'exhausted');
  });
});
