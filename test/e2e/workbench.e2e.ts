/** What a user sees of Alfred in a real VS Code: the status bar, the palette, the sidebar, a role switch. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  STATUS_ITEM, WORKBENCH_START_LIMIT, dashboardFrame, openPalette, quickPickLabels, startWorkbench, statusText, switchRoleFromPalette, withScreenshot, type Workbench,
} from './support/workbench';

let wb: Workbench;

before(async () => { wb = await startWorkbench(); }, { timeout: WORKBENCH_START_LIMIT });
after(async () => { await wb?.close(); });

test('the status bar shows the role and the budget, with the exact budget line', async () => {
  await withScreenshot(wb.page, 'status-bar', async () => {
    assert.match(await statusText(wb.page), /coder · OK 0%/);
    const label = await wb.page.locator(STATUS_ITEM).getAttribute('aria-label');
    assert.equal(label, 'Alfred: Budget[coder]: tokens 0/200000 (0%) | shell 0/100 (0%) | cost $0.00/$5.00 (0%) → OK');
  });
});

test('the command palette lists Alfred\'s commands', async () => {
  await withScreenshot(wb.page, 'palette', async () => {
    // The palette renders only the rows that fit (about 17), and Alfred has more commands: look each one up.
    for (const title of ['Alfred: Switch Role', 'Alfred: Show Budget', 'Alfred: Reset Budget', 'Alfred: Open Event Log', 'Alfred: Show Roles']) {
      await openPalette(wb.page, title);
      const labels = await quickPickLabels(wb.page);
      await wb.page.keyboard.press('Escape');
      assert.ok(labels.includes(title), `${title} in ${JSON.stringify(labels)}`);
    }
  });
});

test('the sidebar opens the dashboard with the budget gauges and the roles', async () => {
  await withScreenshot(wb.page, 'dashboard', async () => {
    await wb.page.locator('.activitybar [aria-label="Alfred"]').first().click();
    const frame = await dashboardFrame(wb.page);
    await frame.getByText('Context tokens').waitFor();
    assert.ok(await frame.getByText('Shell calls').isVisible());
    await frame.getByText(/^Budget\[coder\]: tokens 0\/200000/).waitFor();
    const options = await frame.locator('alfred-role-switcher vscode-option').allTextContents();
    assert.ok(options.some((o) => o.includes('security-auditor')), `roles: ${options.join(', ')}`);
  });
});

test('switching role from the palette shows in the status bar', async () => {
  await withScreenshot(wb.page, 'switch-role', async () => {
    await switchRoleFromPalette(wb.page, 'reviewer');
    await wb.page.locator(STATUS_ITEM, { hasText: 'reviewer · OK' }).waitFor({ timeout: 10_000 });
  });
});

test('a Copilot hook refusal from another process shows up live in the dashboard', async () => {
  await withScreenshot(wb.page, 'hook-refusal', async () => {
    const cli = path.join(wb.extensionDir, 'dist', 'cli', 'alfred.mjs');
    const input = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'run_in_terminal', tool_input: { command: 'rm -rf /' }, cwd: wb.workspace });
    const out = execFileSync(process.execPath, [cli, 'hook', 'PreToolUse'], { input, env: { ...process.env, ...wb.env } }).toString();
    assert.equal(JSON.parse(out).hookSpecificOutput.permissionDecision, 'deny');
    const frame = await dashboardFrame(wb.page);
    await frame.locator('alfred-event-feed li.PolicyViolation', { hasText: 'run_in_terminal' }).first().waitFor({ timeout: 10_000 });
  });
});
