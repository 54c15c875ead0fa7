/**
 * Team budgets as two developers meet them (issue 17): two VS Code windows, each on its own clone of
 * the repository (so two state folders), whose git configs name two developers, share one team budget
 * in a real PostgreSQL (test/support/postgres.ts). Their agents' tool calls go through `alfred hook`
 * as Copilot's would. A refusal in one window shows on the other's dashboard; with the database
 * stopped, a call goes on (offline mode `local`) and is counted once it is back.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { PG_TEST_PASSWORD, startPostgres, type PgServer } from '../support/postgres';
import { dashboardFrame, startWorkbench, WORKBENCH_START_LIMIT, withScreenshot, type Workbench } from './support/workbench';

const TEAM_TOML = 'team = "platform"\n[[budget]]\nname = "shared"\nperiod = "day"\nmax_shell_invocations = 2\n[offline]\ndefault = "local"\n';
const LINE = (used: number, percent: number, signal: string) => `Team[platform/shared day]: shell ${used}/2 (${percent}%) → ${signal}`;

let pg: PgServer;
let wb: Workbench;
let wsB: string;
let pageB: Page;
let env: Record<string, string>;

/** A clone of the repository on a developer's machine: the team's file, and git saying who they are. */
function cloneFor(folder: string, email: string): void {
  fs.mkdirSync(path.join(folder, '.alfred'), { recursive: true });
  fs.writeFileSync(path.join(folder, '.alfred', 'team.toml'), TEAM_TOML);
  execFileSync('git', ['init', '-q'], { cwd: folder });
  execFileSync('git', ['config', 'user.email', email], { cwd: folder });
}

async function openDashboard(page: Page): Promise<Frame> {
  await page.locator('.activitybar [aria-label="Alfred"]').first().click();
  const frame = await dashboardFrame(page);
  await frame.getByText('Context tokens').waitFor();
  return frame;
}

before(async () => {
  pg = await startPostgres();
  // The password by reference, as Alfred requires: the URL names a variable the environment holds.
  env = { ALFRED_LEDGER_URL: pg.url.replace('alfred@', 'alfred:$TEAM_DB_PASSWORD@'), TEAM_DB_PASSWORD: PG_TEST_PASSWORD };
  wb = await startWorkbench({ env, workspaceFiles: { '.alfred/team.toml': TEAM_TOML } });
  cloneFor(wb.workspace, 'ana@acme.dev');
  wsB = path.join(path.dirname(wb.workspace), 'clone-of-bo');
  fs.mkdirSync(wsB, { recursive: true });
  cloneFor(wsB, 'bo@acme.dev');
  pageB = await wb.openWindow(wsB);
}, { timeout: WORKBENCH_START_LIMIT });
after(async () => {
  await wb?.close();
  pg?.stop();
});

/** A shell call of an agent working in `folder`, through the hook as Copilot runs it: allowed or refused. */
function shellCall(folder: string, n: number): 'allowed' | 'refused' {
  const cli = path.join(wb.extensionDir, 'dist', 'cli', 'alfred.mjs');
  const input = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: `s-${path.basename(folder)}`, cwd: folder, tool_name: 'run_in_terminal', tool_input: { command: `npm test -- --grep=case${n}` } });
  const out = execFileSync(process.execPath, [cli, 'hook', 'PreToolUse'], { input, env: { ...process.env, ...wb.env, ...env }, cwd: folder }).toString();
  return /"permissionDecision":\s*"deny"/.test(out) ? 'refused' : 'allowed';
}

test("a refusal in one developer's window shows on the other's dashboard, and a call made while the database was stopped is counted once it is back", { timeout: 300_000 }, async () => {
  await withScreenshot(pageB, 'team-two-windows', async () => {
    const dashboardB = await openDashboard(pageB);
    const budgetB = dashboardB.locator('[data-team-budget="shared"]');
    await budgetB.filter({ hasText: LINE(0, 0, 'OK') }).waitFor({ timeout: 30_000 });

    // Ana's agent spends the team's two shell calls; its third is refused by the team budget.
    assert.deepEqual([shellCall(wb.workspace, 1), shellCall(wb.workspace, 2), shellCall(wb.workspace, 3)], ['allowed', 'allowed', 'refused']);
    // Bo's dashboard, in the other window, shows the spend and who was refused, where, and why.
    await budgetB.filter({ hasText: LINE(2, 100, 'EXHAUSTED') }).waitFor({ timeout: 20_000 });
    const refusal = dashboardB.locator('[data-team-refusal]').first();
    await refusal.waitFor({ timeout: 20_000 });
    assert.match(await refusal.innerText(), /^ana@acme\.dev on .+: .*The team budget shared is exhausted for this day/);

    // The database stops. Bo's call goes on (offline mode local), kept in his state folder.
    pg.halt();
    assert.equal(shellCall(wsB, 4), 'allowed');
    pg.start();
    // Back: Bo's next call first replays what was kept (the budget is now 3 of 2), then is refused.
    assert.equal(shellCall(wsB, 5), 'refused');

    // Ana's window shows Bo's offline call counted, once, and his refusal.
    const dashboardA = await openDashboard(wb.page);
    await dashboardA.locator('[data-team-budget="shared"]').filter({ hasText: LINE(3, 150, 'EXHAUSTED') }).waitFor({ timeout: 20_000 });
    await dashboardA.locator('[data-team-refusal]', { hasText: /^bo@acme\.dev on / }).first().waitFor({ timeout: 20_000 });
    // Per developer, as `alfred team` prints it: nothing lost, nothing counted twice.
    const cli = path.join(wb.extensionDir, 'dist', 'cli', 'alfred.mjs');
    const team = JSON.parse(execFileSync(process.execPath, [cli, 'team', 'day', '--json'], { env: { ...process.env, ...wb.env, ...env }, cwd: wsB }).toString()) as { spend: { user: string; shell: number }[] };
    const shellBy = (user: string) => team.spend.filter((r) => r.user === user).reduce((n, r) => n + r.shell, 0);
    assert.deepEqual([shellBy('ana@acme.dev'), shellBy('bo@acme.dev')], [2, 1]);
  });
});
