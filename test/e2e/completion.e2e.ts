/**
 * Completion the harness can prove, as a user meets it in a real VS Code: "Alfred: Verify Completion"
 * refuses a workspace whose test fails (with the failing output), accepts it after the fix, and the
 * dashboard lists both records, newest first; a click on a check shows its output tail.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { runCommand, startWorkbench, WORKBENCH_START_LIMIT, dashboardFrame, withScreenshot, type Workbench } from './support/workbench';

let wb: Workbench;

before(async () => { wb = await startWorkbench(); }, { timeout: WORKBENCH_START_LIMIT });
after(async () => { await wb?.close(); });

const toast = (text: RegExp) => wb.page.locator('.notification-toast', { hasText: text }).first();

test('a failing test is refused with its output, the fix is accepted, and the dashboard lists both records', async () => {
  await withScreenshot(wb.page, 'completion-records', async () => {
    const cart = path.join(wb.workspace, 'src', 'cart.js');
    const original = fs.readFileSync(cart, 'utf8');
    fs.writeFileSync(cart, original.replace('100 - discountPercent', '100 + discountPercent'));
    await runCommand(wb.page, 'Alfred: Verify Completion');
    await toast(/Not accepted: required check "npm test" failed \(exit code 1\)/).waitFor({ timeout: 60_000 });
    // The failing output is in the "Alfred: Completion" output channel, opened in the panel (at its end).
    await wb.page.locator('.part.panel', { hasText: '# fail 1' }).first().waitFor({ timeout: 15_000 });

    fs.writeFileSync(cart, original);
    await runCommand(wb.page, 'Alfred: Verify Completion');
    await toast(/^Accepted: every required check passed/).waitFor({ timeout: 60_000 });

    await wb.page.locator('.activitybar [aria-label="Alfred"]').first().click();
    const dashboard = await dashboardFrame(wb.page);
    const records = dashboard.locator('alfred-completion-records li:not(.check)');
    await records.nth(1).waitFor({ timeout: 15_000 });
    assert.deepEqual((await records.locator('summary span:first-child').allInnerTexts()).map((s) => s.trim()), ['Accepted', 'Not accepted']);
    // A click opens the refused record, another its check: the output tail shows.
    await records.nth(1).locator('summary').first().click();
    const check = records.nth(1).locator('li.check.failed');
    await check.locator('summary').click();
    await check.locator('pre', { hasText: 'a discount is taken off the total' }).waitFor();
    assert.match(await check.locator('summary').innerText(), /npm test: failed · exit 1/);
  });
});
