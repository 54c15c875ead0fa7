/**
 * One money format: the same charges read as the same string on every surface. One `@alfred`
 * request to a model without a price (200 tokens in, 7 out at the fallback $3/$15 per million:
 * $0.000705) goes through the real charge path; then each surface's formatter reads what it reads
 * (the budget line, the event feed, `alfred usage`, the dashboard's session, gauge and daily spend,
 * the status bar's session cost, the chat footer and `/budget`).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { usageCost } from '../../../src/cli/commands/usage';
import { formatCharge, formatLimitUsd, formatUsd } from '../../../src/core/base/money';
import { priceFor } from '../../../src/core/rules/budget/prices';
import { eventsNewestFirst } from '../../../src/core/base/events/read';
import { summarizeEvent } from '../../../src/core/base/events/summary';
import { chargeModelUsage } from '../../../src/core/models/charge';
import { dailySpend, readUsage } from '../../../src/core/models/usageLog';
import { addCharge, noCost, summarizeUsage } from '../../../src/core/usage/summary';
import { makeRole } from '../../fixtures/budget-role';

import { cost as dashboardSessionCost, spent } from '../../../webview/dashboard/components/usageFormat';
import { dollars } from '../../../webview/shared/numbers';

// The webview's helpers read the page's language when they format; in Node there is no page.
(globalThis as { document?: unknown }).document = { documentElement: { lang: 'en' } };

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-money-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('one fallback-priced request reads ~$0.0007 (fallback price) everywhere, and the limit never carries ~', async () => {
  const role = makeRole('coder');
  const price = priceFor('acme-unpriced-1');
  assert.equal(price.estimated, true);
  const charged = await chargeModelUsage(dir, role, { model: 'acme-unpriced-1', inputTokens: 200, outputTokens: 7, price, measured: 'reported', source: 'chat' });
  const EXPECTED = '~$0.0007 (fallback price)';

  // The budget line: its documented form, the spend marked, the limit not.
  assert.equal(charged.line, 'Budget[coder]: tokens 0/200000 (0%) | shell 0/100 (0%) | cost ~$0.0007/$5.00 (0%) → OK');

  // The event feed (dashboard and `alfred events`).
  const usageEvent = [...eventsNewestFirst(dir)].find((e) => e.type === 'ModelUsage')!;
  assert.equal(summarizeEvent(usageEvent), `acme-unpriced-1 used 200 tokens in, 7 out, ${EXPECTED}`);

  // `alfred usage` and the dashboard's agent session, from the same usage records.
  const summary = summarizeUsage(readUsage(dir).records);
  assert.equal(usageCost(summary.total), EXPECTED);
  assert.equal(dashboardSessionCost(summary.sessions[0]!), EXPECTED);

  // The dashboard's cost gauge (spend marked, limit plain) and its daily spend.
  const status = charged.status;
  assert.equal(`${dollars(status.dimensions.cost.used, status.costEstimated)} / ${dollars(status.dimensions.cost.limit)}`, '~$0.0007 / $5.00');
  const day = dailySpend(dir, 0);
  assert.equal(spent(day.usd, day.estimated), EXPECTED);

  // The status bar's session cost (from the events' charges), the chat footer (the turn's requests) and `/budget` (today's spend).
  const split = [...eventsNewestFirst(dir)].reduce(addCharge, noCost());
  assert.equal(formatCharge({ usd: split.measuredUsd + split.estimatedUsd, fallback: split.fallback }, 'en'), EXPECTED);
  assert.equal(formatCharge({ usd: charged.costUsd, fallback: charged.record.estimated }, 'en'), EXPECTED);
  assert.equal(formatCharge({ usd: day.usd, fallback: day.estimated }, 'en'), EXPECTED);
});

test('digits: cents from a dollar up, up to four decimals below, two significant digits below a hundredth of a cent', () => {
  assert.deepEqual([0, 0.5, 5, 12.345, 0.0007, 0.000705, 0.0564, 0.01, 0.1234, 0.99996, 0.000012, 1e-12].map((n) => formatUsd(n)),
    ['$0.00', '$0.50', '$5.00', '$12.35', '$0.0007', '$0.0007', '$0.0564', '$0.01', '$0.1234', '$1.00', '$0.000012', '$0.00']);
  assert.equal(formatUsd(1234.5), '$1234.50', 'no grouping without a locale: the budget line\'s form');
  assert.equal(formatUsd(1234.5, { locale: 'en' }), '$1,234.50');
  assert.equal(formatUsd(0.0007, { locale: 'es' }), '$0,0007');
  assert.equal(formatUsd(0.25, { estimated: true }), '~$0.25');
  assert.equal(formatLimitUsd(5), '$5.00');
  assert.equal(formatCharge({ usd: 0.25, fallback: false }), '$0.25');
  assert.equal(formatCharge({ usd: 0.25, fallback: true }, 'es', 'precio de reserva'), '~$0,25 (precio de reserva)');
});
