/**
 * The dashboard, the role editor and the configuration-write pipeline as a user meets them in a real
 * VS Code, in one workbench (each workbench costs a loaded 2-core machine most of a minute to start).
 *
 * Sections read from the workspace's files, as it opens. MCP servers (issue 16): the workspace's
 * .vscode/mcp.json names packages of a real npm registry on loopback (verdaccio,
 * test/support/registry.ts, named by the workspace's .npmrc); Alfred audits them and the "MCP servers"
 * section shows each verdict. Simulated, as verdaccio cannot express them: weekly downloads (a loopback
 * downloads API, named by the user setting alfred.mcpAudit.downloadsApi) and an old package's age (its
 * stored publish times rewritten). Trials: a suite's outcomes (.alfred/trials.toml and the outcomes
 * file, as `alfred trial run` writes them) read in the Trials section as each condition's acceptance
 * and the one-component comparison with its intervals and conclusions.
 *
 * Then gauges after hooks charged the budget, an agent session's spend and tool calls, a role switch
 * from the sidebar, a role created through the form, its diff confirmed (file and backup on disk), and
 * a cancelled save writing nothing. Last, completion the harness can prove: "Alfred: Verify
 * Completion" refuses a workspace whose test fails (with the failing output), accepts it after the fix,
 * and the dashboard lists both records, newest first; a click on a check shows its output tail.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { workspaceId } from '../../src/core/base/state/paths';
import { startDownloadsServer, startTestRegistry, type DownloadsServer, type TestRegistry } from '../support/registry';
import { STATUS_ITEM, dashboardFrame, runCommand, startWorkbench, WORKBENCH_START_LIMIT, withScreenshot, type Workbench } from './support/workbench';

let registry: TestRegistry;
let downloads: DownloadsServer;
let wb: Workbench;
let dashboard: Frame;

/** A trial suite and its outcomes, as `alfred trial run` writes them: the handoff condition accepts 3 of 3, control 2 of 3. */
const trialBudget = { tokens: 1000, seconds: 60, usd: 0.5 };
const trialLine = (condition: string, trial: number, handoff: string, dup: number, status = 'accepted') => JSON.stringify({
  kind: 'ended', key: `${condition}/fix/${trial}`, condition, task: 'fix', trial, instance: 'inst', suiteHash: 'h1',
  fingerprint: { id: handoff, components: { model: 'm', handoff } }, status, escapedDefect: null, duplicatedToolActions: dup,
  tokens: 100, costUsd: 0.01, wallMs: 1000, budget: trialBudget, startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:00:01.000Z',
});
const TRIAL_FILES = {
  '.alfred/trials.toml': 'name = "demo"\ntrials = 3\n[[task]]\nid = "fix"\nprompt = "p"\nbudget = { tokens = 1000, seconds = 60, usd = 0.5 }\n[[condition]]\nname = "control"\ncontrol = true\n[[condition]]\nname = "handoff"\n',
  '.alfred/trials/demo/outcomes.jsonl': [1, 2, 3].flatMap((i) => [trialLine('control', i, 'off', 2, i === 3 ? 'rejected' : 'accepted'), trialLine('handoff', i, 'on', 0)]).join('\n') + '\n',
};

const MCP_JSON = {
  servers: {
    clean: { command: 'npx', args: ['-y', 'clean-mcp@1.0.0'] },
    telemetry: { command: 'npx', args: ['-y', 'hosts-mcp@2.0.0'] },
    abandoned: { command: 'npx', args: ['old-mcp@0.1.0'] },
    sunset: { command: 'npx', args: ['-y', 'deprecated-mcp'] },
    remote: { type: 'http', url: 'https://mcp.example.invalid/mcp' },
  },
};

before(async () => {
  registry = await startTestRegistry();
  downloads = await startDownloadsServer({ 'clean-mcp': 2500, 'hosts-mcp': 900, 'old-mcp': 7, 'deprecated-mcp': 5000 });
  await registry.publish(
    { name: 'clean-mcp', version: '1.0.0', files: { 'index.js': 'module.exports = (a, b) => a + b;\n' } },
    {
      name: 'hosts-mcp', version: '2.0.0', scripts: { postinstall: 'node setup.js' },
      files: { 'index.js': 'const u = "https://api.acme-telemetry.com/v1/collect";\nmodule.exports = u;\n', 'setup.js': 'console.log("setup");\n' },
    },
    { name: 'old-mcp', version: '0.1.0', files: { 'index.js': 'module.exports = 1;\n' } },
    { name: 'deprecated-mcp', version: '1.0.0', files: { 'index.js': 'module.exports = 2;\n' } },
  );
  await registry.deprecate('deprecated-mcp@1.0.0', 'use clean-mcp instead');
  registry.setPublishTimes('old-mcp', { '0.1.0': '2023-01-05T00:00:00.000Z', created: '2023-01-05T00:00:00.000Z', modified: '2023-01-05T00:00:00.000Z' });
  wb = await startWorkbench({
    settings: { 'alfred.mcpAudit.downloadsApi': downloads.url },
    workspaceFiles: { '.npmrc': `registry=${registry.url}\n`, '.vscode/mcp.json': JSON.stringify(MCP_JSON, null, 2), ...TRIAL_FILES },
  });
  await wb.page.locator('.activitybar [aria-label="Alfred"]').first().click();
  dashboard = await dashboardFrame(wb.page);
  await dashboard.getByText('Context tokens').waitFor();
}, { timeout: WORKBENCH_START_LIMIT });
after(async () => {
  await wb?.close();
  await downloads?.close();
  await registry?.close();
});

const cli = () => path.join(wb.extensionDir, 'dist', 'cli', 'alfred.mjs');
function alfred(args: string[], input?: object): string {
  return execFileSync(process.execPath, [cli(), ...args], {
    input: input ? JSON.stringify({ ...input, cwd: wb.workspace }) : undefined, env: { ...process.env, ...wb.env }, cwd: wb.workspace,
  }).toString();
}
const stateDir = () => path.join(wb.env.ALFRED_HOME!, 'state', workspaceId(wb.workspace));
const backups = () => {
  const dir = path.join(stateDir(), 'backups');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((d) => !d.startsWith('.')).sort() : [];
};

/** The document of the webview (panel or view) that shows `selector`. */
async function webviewWith(page: Page, selector: string): Promise<Frame> {
  for (let i = 0; i < 150; i++) {
    for (const frame of page.frames()) {
      if (await frame.locator(selector).count().catch(() => 0)) return frame;
    }
    await page.waitForTimeout(100);
  }
  throw new Error(`no webview shows ${selector}`);
}

const gaugeText = async (dimension: string) => (await dashboard.locator(`[data-dimension="${dimension}"] .value`).first().innerText()).trim();

const row = (name: string) => dashboard.locator(`[data-server="${name}"]`);

test('a workspace whose mcp.json names packages shows each server\'s verdict in the dashboard', async () => {
  await withScreenshot(wb.page, 'dashboard-mcp-servers', async () => {
    await row('remote').waitFor({ timeout: 90_000 });
    const attrs = async (name: string) => {
      const r = row(name);
      return [await r.getAttribute('data-status'), await r.getAttribute('data-curation'), await r.getAttribute('data-pinned')];
    };
    assert.deepEqual(await attrs('clean'), ['audited', 'alive', 'true']);
    assert.deepEqual(await attrs('telemetry'), ['audited', 'alive', 'true']);
    assert.deepEqual(await attrs('abandoned'), ['audited', 'dead', 'true']);
    assert.deepEqual(await attrs('sunset'), ['audited', 'alive', 'false']);
    assert.deepEqual(await attrs('remote'), ['not-checked', 'unknown', 'false']);
    // What each row says, as the user reads it.
    assert.equal((await row('telemetry').locator('[data-field="hosts"]').innerText()).trim(), 'hosts: api.acme-telemetry.com');
    assert.equal((await row('telemetry').locator('[data-field="scripts"]').innerText()).trim(), 'install scripts: postinstall: node setup.js');
    assert.equal((await row('clean').locator('[data-field="scripts"]').innerText()).trim(), 'no install scripts');
    assert.equal((await row('clean').locator('[data-field="hosts"]').innerText()).trim(), 'no hosts referenced');
    assert.match(await row('abandoned').innerText(), /7 downloads a week · last published 2023-01-05/);
    assert.match(await row('sunset').innerText(), /deprecated: use clean-mcp instead/);
    assert.match(await row('sunset').innerText(), /version in use may differ from the audited deprecated-mcp@1\.0\.0/);
    assert.match(await row('sunset').innerText(), /deprecated-mcp@latest/);
    assert.match(await row('remote').innerText(), /a remote server at https:\/\/mcp\.example\.invalid\/mcp/);
    assert.match(await dashboard.locator('#mcp-at').innerText(), /^Audited \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(UTC\)$/);
  });
});

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

test('the gauges show what hooks in another process charged, and the daily cap when set', async () => {
  await withScreenshot(wb.page, 'dashboard-gauges', async () => {
    const output = fs.readFileSync(path.join(wb.workspace, 'src', 'cart.js'), 'utf8').repeat(20);
    alfred(['hook', 'PreToolUse'], { hook_event_name: 'PreToolUse', tool_name: 'run_in_terminal', tool_input: { command: 'npm test' } });
    alfred(['hook', 'PostToolUse'], { hook_event_name: 'PostToolUse', tool_name: 'run_in_terminal', tool_input: { command: 'npm test' }, tool_response: output });
    const budget = JSON.parse(alfred(['budget', '--json'])) as { dimensions: Record<string, { used: number; limit: number; percent: number }> };
    const { tokens, shell } = budget.dimensions;
    assert.ok(tokens!.used > 0 && shell!.used === 1, JSON.stringify(budget));
    // The gauges follow the ledger other processes wrote, live.
    // The gauges group digits as the display language (English here) does.
    const n = (v: number) => v.toLocaleString('en');
    await dashboard.locator('[data-dimension="tokens"] .value', { hasText: `${n(tokens!.used)} / ${n(tokens!.limit)} (${tokens!.percent}%)` }).waitFor({ timeout: 10_000 });
    assert.equal(await gaugeText('shell'), `1 / ${n(shell!.limit)} (${shell!.percent}%)`);
    assert.match(await gaugeText('cost'), /^~?\$0\.\d+ \/ \$5\.00/);
    await dashboard.getByText('no daily cap set').waitFor();
    // A daily cap set in the workspace's settings turns the amount into a gauge, without a reload.
    fs.mkdirSync(path.join(wb.workspace, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(wb.workspace, '.vscode', 'settings.json'), JSON.stringify({ 'alfred.dailyBudgetUsd': 2 }));
    await dashboard.locator('[data-dimension="daily"] .value', { hasText: / \/ \$2\.00 \(\d+%\)/ }).waitFor({ timeout: 15_000 });
    assert.equal(await dashboard.locator('[data-dimension="daily"] [role="meter"]').count(), 1);
  });
});

test('the agent sessions show what a Claude Code session spent today: measured, the fallback price named where it was used, its tool and shell calls', async () => {
  await withScreenshot(wb.page, 'dashboard-agent-sessions', async () => {
    // Claude Code's transcript of today, one of its two models without a price in Alfred's table.
    const today = new Date().toISOString().slice(0, 10);
    const fixture = path.resolve(import.meta.dirname, '..', 'fixtures', 'usage', 'claude-transcript.jsonl');
    const transcript = path.join(wb.env.ALFRED_HOME!, '..', 'claude-session.jsonl');
    fs.writeFileSync(transcript, fs.readFileSync(fixture, 'utf8').replaceAll('2026-03-02T', `${today}T`).replaceAll('claude-haiku-4-5-20251001', 'acme-large-2'));
    const session = '5c1f0e2a-7b3d-4e8a-9f61-2d4b8c7a9e10';
    const claude = { hook_event_name: 'PreToolUse', session_id: session, permission_mode: 'default', transcript_path: transcript };
    alfred(['hook', 'PreToolUse'], { ...claude, tool_name: 'Read', tool_input: { file_path: 'src/cart.js' } });
    alfred(['hook', 'PreToolUse'], { ...claude, tool_name: 'Bash', tool_input: { command: 'npm test' } });

    // The row updates by itself once the hooks' events arrive (the second hook's tool call is the last change).
    const row = dashboard.locator(`alfred-agent-sessions li[data-session="${session}"]`);
    await row.locator('[data-field="tools"]', { hasText: /^2$/ }).waitFor({ timeout: 20_000 });
    const field = async (name: string, where = row) => (await where.locator(`[data-field="${name}"]`).innerText()).trim();
    assert.equal(await field('calls'), '5');
    assert.equal((await row.locator('.head .name').innerText()).trim(), 'Claude Code');
    assert.equal((await row.locator('code.id').innerText()).trim(), '5c1f0e2a');
    assert.equal((await row.locator('.models').innerText()).trim(), 'claude-sonnet-4-5-20250929, acme-large-2');
    assert.equal(await field('tokens'), '60,656 in (50,660 cached), 860 out');
    assert.equal(await field('cost'), '$0.0517 measured + ~$0.0177 (fallback price)');
    assert.equal(await field('tools'), '2');
    assert.equal(await field('shell'), '1');
    // Per model: the unpriced one is priced with the fallback price, and says so.
    const sonnet = dashboard.locator('alfred-models-today li[data-model="claude-sonnet-4-5-20250929"]');
    assert.deepEqual([await field('calls', sonnet), await field('tokens', sonnet), await field('cost', sonnet)],
      ['3', '55,936 in (48,510 cached), 623 out', '$0.0517 measured']);
    const unpriced = dashboard.locator('alfred-models-today li[data-model="acme-large-2"]');
    assert.deepEqual([await field('calls', unpriced), await field('tokens', unpriced), await field('cost', unpriced)],
      ['2', '4,720 in (2,150 cached), 237 out', '~$0.0177 (fallback price)']);
    // The command line says the same.
    assert.match(alfred(['usage', '--since', today]), new RegExp(`session ${session} \\(claude-transcript\\) .*: 5 model calls · 60656 in \\(50660 cached\\), 860 out · \\$0\\.0517 measured \\+ ~\\$0\\.0177 \\(fallback price\\) · 2 tool calls, 1 shell call`));
    // The status bar's tooltip splits the session's cost: the transcript's requests measured, the rest estimated.
    await wb.page.locator(STATUS_ITEM).hover();
    await wb.page.locator('.workbench-hover, .monaco-hover', { hasText: /Cost this session ~\$\d+\.\d{4} \(fallback price\): \$0\.0517 measured \(reported by the agents\), ~\$\d+\.\d{4} estimated/ }).first().waitFor({ timeout: 10_000 });
    await wb.page.mouse.move(0, 0);
  });
});

test('switching role from the dashboard\'s select moves the status bar', async () => {
  await withScreenshot(wb.page, 'dashboard-switch-role', async () => {
    const select = dashboard.locator('alfred-role-switcher vscode-single-select');
    await select.click();
    await select.getByRole('option', { name: 'reviewer (builtin)' }).click();
    await wb.page.locator(STATUS_ITEM, { hasText: 'reviewer · OK' }).waitFor({ timeout: 10_000 });
    assert.match(alfred(['status']), /reviewer/);
  });
});

/** Opens the role editor from the dashboard and fills the form. */
async function fillNewRole(name: string): Promise<Frame> {
  await dashboard.locator('vscode-button#new-role').click();
  const editor = await webviewWith(wb.page, 'alfred-role-editor vscode-textfield#name');
  await editor.locator('vscode-textfield#name input').fill(name);
  const inherits = editor.locator('vscode-single-select#inherits');
  await inherits.click();
  await inherits.getByRole('option', { name: 'reviewer (builtin)' }).click();
  await editor.locator('vscode-textfield#description input').fill('Made in the role editor');
  // Checked as you type, with the loader's own rules.
  await editor.locator('vscode-textfield#max_cost_usd input').fill('two');
  await editor.getByText('must be a number, got "two"').first().waitFor();
  assert.equal(await editor.locator('vscode-button#save').getAttribute('disabled'), '');
  await editor.locator('vscode-textfield#max_cost_usd input').fill('2.5');
  await editor.getByText('No problems: the loader will accept this role.').waitFor();
  await editor.locator('#toml', { hasText: 'max_cost_usd = 2.5' }).waitFor();
  return editor;
}

test('a role made with the editor is shown as a diff, confirmed, written with a backup, and loads', async () => {
  await withScreenshot(wb.page, 'role-editor-save', async () => {
    const before = backups();
    const editor = await fillNewRole('e2e-auditor');
    await editor.locator('vscode-button#save').click();
    const confirm = await webviewWith(wb.page, 'alfred-confirm alfred-diff-block');
    const diff = await confirm.locator('alfred-diff-block pre').innerText();
    assert.match(diff, /\+\+\+ b\/\.alfred\/roles\/e2e-auditor\.toml/);
    assert.match(diff, /\+inherits = "reviewer"/);
    assert.match(diff, /\+max_cost_usd = 2\.5/);
    const file = path.join(wb.workspace, '.alfred', 'roles', 'e2e-auditor.toml');
    assert.equal(fs.existsSync(file), false, 'nothing is written before Confirm');
    // VS Code's own diff editor shows the same change.
    await confirm.locator('vscode-button.open-diff').click();
    await wb.page.locator('.tab', { hasText: 'e2e-auditor.toml (current ↔ planned' }).waitFor();
    await confirm.locator('vscode-button#confirm').click();

    await wb.page.locator('.notifications-toasts', { hasText: 'Role e2e-auditor saved' }).waitFor({ timeout: 10_000 });
    assert.match(fs.readFileSync(file, 'utf8'), /^\[role\]\nname = "e2e-auditor"\ninherits = "reviewer"\ndescription = "Made in the role editor"/);
    const added = backups().filter((b) => !before.includes(b));
    assert.equal(added.length, 1);
    const manifest = JSON.parse(fs.readFileSync(path.join(stateDir(), 'backups', added[0]!, 'manifest.json'), 'utf8'));
    assert.equal(manifest.reason, 'new role e2e-auditor');
    assert.deepEqual(manifest.files.map((f: { path: string; existed: boolean }) => [f.path, f.existed]), [[fs.realpathSync(file), false]]);
    // The roles reload at once: the dashboard lists the new role, and so does the command line.
    await dashboard.locator('alfred-role-switcher vscode-option', { hasText: 'e2e-auditor (project)' }).waitFor({ state: 'attached' });
    assert.match(alfred(['roles']), /e2e-auditor/);
  });
});

test('cancelling the confirmation writes nothing and keeps the form', async () => {
  await withScreenshot(wb.page, 'role-editor-cancel', async () => {
    const before = backups();
    const editor = await fillNewRole('e2e-cancelled');
    await editor.locator('vscode-button#save').click();
    const confirm = await webviewWith(wb.page, 'alfred-confirm alfred-diff-block');
    await confirm.locator('vscode-button#cancel').click();
    await editor.locator('#save-message', { hasText: 'Not saved: nothing was written.' }).waitFor({ timeout: 10_000 });
    assert.equal(fs.existsSync(path.join(wb.workspace, '.alfred', 'roles', 'e2e-cancelled.toml')), false);
    assert.deepEqual(backups(), before);
    assert.equal(await editor.locator('vscode-textfield#name').evaluate((e) => (e as unknown as { value: string }).value), 'e2e-cancelled');
  });
});

const toast = (text: RegExp) => wb.page.locator('.notification-toast', { hasText: text }).first();

test('each section\'s first line sits as far under its heading as the others\', the empty completion records\' too', async () => {
  await dashboard.getByText('No completion records yet.', { exact: false }).waitFor();
  const gapUnder = async (heading: string): Promise<number> => {
    const h = await dashboard.locator(`#${heading}`).boundingBox();
    const first = await dashboard.locator(`section[aria-labelledby="${heading}"] p`).first().boundingBox();
    assert.ok(h && first, `${heading}: a heading and a first line`);
    return first.y - (h.y + h.height);
  };
  const gaps = { failover: await gapUnder('failover-h'), pack: await gapUnder('pack-h'), completions: await gapUnder('completions-h') };
  assert.ok(Math.abs(gaps.completions - gaps.failover) < 1 && Math.abs(gaps.pack - gaps.failover) < 1, JSON.stringify(gaps));
});

// Last: it edits src/cart.js (the gauges test's command output) and opens the panel, so the tests above
// meet the workbench as they would alone.
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

    // The dashboard is open in the sidebar since the start.
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
