/**
 * The dashboard's Trials section in a real VS Code: a suite's outcomes (as `alfred trial run` writes them)
 * read as each condition's acceptance and the one-component comparison with its intervals and conclusions.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { dashboardFrame, startWorkbench, WORKBENCH_START_LIMIT, type Workbench } from './support/workbench';

const budget = { tokens: 1000, seconds: 60, usd: 0.5 };
const line = (condition: string, trial: number, handoff: string, dup: number, status = 'accepted') => JSON.stringify({
  kind: 'ended', key: `${condition}/fix/${trial}`, condition, task: 'fix', trial, instance: 'inst', suiteHash: 'h1',
  fingerprint: { id: handoff, components: { model: 'm', handoff } }, status, escapedDefect: null, duplicatedToolActions: dup,
  tokens: 100, costUsd: 0.01, wallMs: 1000, budget, startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:00:01.000Z',
});
const outcomes = [1, 2, 3].flatMap((i) => [line('control', i, 'off', 2, i === 3 ? 'rejected' : 'accepted'), line('handoff', i, 'on', 0)]).join('\n') + '\n';

let wb: Workbench;
let dashboard: Frame;
before(async () => {
  wb = await startWorkbench({ workspaceFiles: {
    '.alfred/trials.toml': 'name = "demo"\ntrials = 3\n[[task]]\nid = "fix"\nprompt = "p"\nbudget = { tokens = 1000, seconds = 60, usd = 0.5 }\n[[condition]]\nname = "control"\ncontrol = true\n[[condition]]\nname = "handoff"\n',
    '.alfred/trials/demo/outcomes.jsonl': outcomes,
  } });
  await wb.page.locator('.activitybar [aria-label="Alfred"]').first().click();
  dashboard = await dashboardFrame(wb.page);
  await dashboard.getByText('Context tokens').waitFor();
}, { timeout: WORKBENCH_START_LIMIT });
after(async () => { await wb?.close(); });

test('the Trials section shows the suite and its comparison', async () => {
  const suite = dashboard.locator('alfred-trial-suites [data-suite="demo"]');
  await suite.waitFor({ timeout: 30_000 });
  await suite.scrollIntoViewIfNeeded();
  const text = (await suite.innerText()).replace(/\s+/g, ' ');
  assert.match(text, /control: accepted 2 of 3 \(control\)/);
  assert.match(text, /Component changed: handoff \(off → on\)/);
  // The sentences alfred compare writes: 2 of 3 against 3 of 3 cannot tell, and three trials a side are few.
  assert.match(text, /Acceptance rate: the interval includes no change \(\+33\.3 points, 95% interval -[0-9.]+ to \+[0-9.]+\); these trials cannot tell whether it helps\./);
  assert.match(text, /Note: With 3 measured trials on the smaller side, the bootstrap intervals are too narrow/);
  const dup = (await dashboard.locator('alfred-trial-suites li[data-metric="duplicatedToolActions"]').innerText()).replace(/\s+/g, ' ');
  assert.match(dup, /^Duplicated tool actions −\u20602\.00 better/);
});
