/**
 * What a user sees of Alfred in a real VS Code with no other AI extension: the status bar, the palette,
 * the sidebar, a role switch, and @alfred answering on Alfred's own model (a loopback endpoint whose
 * key is a `$VAR` reference), its doctor, its failover to the next provider, its exact charge.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { enableBuiltinChat } from '../../scripts/lib/browser.mjs';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer';
import {
  STATUS_ITEM, WORKBENCH_START_LIMIT, askInChat, dashboardFrame, openPalette, quickPickLabels, runCommand, runDoctor, startWorkbench, statusText, switchRoleFromPalette, until, withScreenshot, type Workbench,
} from './support/workbench';

let wb: Workbench;
let main: FakeModelServer;
let backup: FakeModelServer;
const KEY = 'sk-e2e-0123456789abcdef';
const PRICE = { inputPerMTok: 2, cachedInputPerMTok: 0.5, outputPerMTok: 10 };

before(async () => {
  main = await startFakeModelServer({ apiKey: KEY });
  backup = await startFakeModelServer({ apiKey: KEY });
  const provider = (name: string, server: FakeModelServer) => ({ name, protocol: 'openai', baseUrl: `${server.url}/v1`, key: '$ALFRED_E2E_KEY', models: [{ id: 'fake-model', price: PRICE }] });
  wb = await startWorkbench({
    // The bundled chat without a sign-in; Alfred's models are then the only ones it has.
    beforeLoad: (page, url) => enableBuiltinChat(page, url),
    env: { ALFRED_E2E_KEY: KEY },
    // A reviewer whose shell commands write nothing but the workspace, the temporary folders and the caches.
    workspaceFiles: { '.alfred/roles/locked-reviewer.toml': '[role]\nname = "locked-reviewer"\ninherits = "reviewer"\nsandbox = "strict"\n' },
    machineSettings: { 'alfred.providers': [provider('main', main), provider('backup', backup)] },
    settings: {
      'alfred.profiles': [{ name: 'two', chain: [{ id: 'alfred/main/fake-model' }, { id: 'alfred/backup/fake-model' }] }],
      // Ignored by VS Code in this remote window (the setting is machine-scoped): /doctor says so.
      'alfred.providers': [{ name: 'ignored', protocol: 'openai', baseUrl: 'http://127.0.0.1:9/v1', models: 'list' }],
    },
  });
}, { timeout: WORKBENCH_START_LIMIT });
after(async () => {
  await wb?.close();
  await main?.close();
  await backup?.close();
});

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
    // The gauges group digits as the display language does; the line keeps its exact form.
    assert.equal((await frame.locator('[data-dimension="tokens"] .value').innerText()).trim(), '0 / 200,000 (0%)');
    const options = await frame.locator('alfred-role-switcher vscode-option').allTextContents();
    assert.ok(options.some((o) => o.includes('security-auditor')), `roles: ${options.join(', ')}`);
  });
});

test('Show Roles and Switch Role say each role\'s rules as a person reads them: no `denied []`, separators, a limit of 0 "not allowed"', async () => {
  await withScreenshot(wb.page, 'role-picks', async () => {
    const row = async (command: string, role: string): Promise<string> => {
      await runCommand(wb.page, command);
      const found = wb.page.locator('.quick-input-list .monaco-list-row', { has: wb.page.locator('.label-name', { hasText: new RegExp(`^\\s*${role}$`) }) });
      await found.first().waitFor({ timeout: 10_000 });
      const text = (await found.first().innerText()).replace(/\s+/g, ' ').trim();
      await wb.page.keyboard.press('Escape');
      return text;
    };
    const coderRules = await row('Alfred: Show Roles', 'coder');
    assert.match(coderRules, /builtin .* · shell track · allowed: every tool · denied: none$/, coderRules);
    const reviewerLimits = await row('Alfred: Switch Role', 'reviewer');
    assert.match(reviewerLimits, / · shell deny · 150,000 tokens · shell calls not allowed · up to \$[\d.,]+$/, reviewerLimits);
    assert.doesNotMatch(coderRules + reviewerLimits, /\[\]| 0 shell/);
  });
});

test('switching role from the palette shows in the status bar', async () => {
  await withScreenshot(wb.page, 'switch-role', async () => {
    await switchRoleFromPalette(wb.page, 'reviewer');
    await wb.page.locator(STATUS_ITEM, { hasText: 'reviewer · OK' }).waitFor({ timeout: 10_000 });
  });
});

test('the reviewer\'s shell limit of 0 reads "not allowed", and the switch reads as a sentence in the feed', async () => {
  await withScreenshot(wb.page, 'limit-zero', async () => {
    const frame = await dashboardFrame(wb.page);
    await frame.locator('[data-dimension="shell"] .value', { hasText: 'not allowed' }).waitFor({ timeout: 10_000 });
    assert.equal((await frame.locator('[data-dimension="shell"] .value').innerText()).trim(), 'not allowed');
    assert.equal(await frame.locator('[data-dimension="shell"] [role="meter"]').count(), 0, 'no gauge to fill for a limit of 0');
    assert.equal((await frame.locator('[data-dimension="tokens"] .value').innerText()).trim(), '0 / 150,000 (0%)');
    await frame.locator('alfred-event-feed li.RoleChanged', { hasText: 'Role changed from coder to reviewer' }).first().waitFor({ timeout: 10_000 });
    // The status bar's tooltip: the exact line for agents, then the same for a person.
    await wb.page.locator(STATUS_ITEM).hover();
    const hover = wb.page.locator('.monaco-hover', { hasText: 'Shell calls: not allowed' });
    await hover.waitFor({ timeout: 10_000 });
    assert.match(await hover.innerText(), /Budget\[reviewer\]: tokens 0\/150000 \(0%\) \| shell 0\/0 \(0%\)/);
    assert.match(await hover.innerText(), /Context tokens: 0 \/ 150,000 \(0%\)/);
    await wb.page.mouse.move(600, 300);
  });
});

test('a role with sandbox = "strict" says so on the dashboard: its commands write only the workspace, the temporary folders and the caches, open no Unix socket, and reach no network name (the reviewer\'s, inherited)', async () => {
  await withScreenshot(wb.page, 'strict-sandbox', async () => {
    // From the reviewer to a reviewer with less: no confirmation is asked.
    await switchRoleFromPalette(wb.page, 'locked-reviewer');
    await wb.page.locator(STATUS_ITEM, { hasText: 'locked-reviewer · OK' }).waitFor({ timeout: 10_000 });
    const frame = await dashboardFrame(wb.page);
    const sandbox = frame.locator('#sandbox', { hasText: 'strict' });
    await sandbox.waitFor({ timeout: 10_000 });
    assert.equal((await sandbox.innerText()).trim(),
      'Shell sandbox: bubblewrap, strict. Shell commands write only the workspace and their own copies of the temporary folders and the download caches, and not the protected paths in them.'
      + ' They cannot open a Unix socket (X11, D-Bus, an ssh agent, Docker). They reach no network name.');
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
    // A sentence, not JSON; the record itself opens from the keyboard.
    const row = frame.locator('alfred-event-feed li.ToolCall', { hasText: 'Refused run_in_terminal:' }).first();
    await row.waitFor({ timeout: 10_000 });
    assert.doesNotMatch(await row.locator('.sentence').innerText(), /[{}]/);
    assert.equal(await row.locator('pre').isVisible(), false);
    await row.locator('summary').focus();
    await wb.page.keyboard.press('Enter');
    await row.locator('pre').waitFor({ state: 'visible', timeout: 5_000 });
    assert.match(await row.locator('pre').innerText(), /"decision": "deny"/);
  });
});

test('the review panel of files that do not exist yet (the hook file, the Copilot CLI\'s trusted folders) says there is nothing to back up', async () => {
  await withScreenshot(wb.page, 'review-new-file', async () => {
    await runCommand(wb.page, 'Alfred: Govern Copilot Agent Sessions');
    const offer = wb.page.locator('.monaco-dialog-box');
    await offer.waitFor({ timeout: 15_000 });
    await offer.getByRole('button', { name: 'Hooks only' }).click();
    // The panel's document is one of the page's frames: the one that shows the note.
    let panel: import('playwright-core').Frame | undefined;
    for (let i = 0; i < 150 && !panel; i++) {
      for (const f of wb.page.frames()) if (await f.locator('alfred-confirm #backup-note').count().catch(() => 0)) panel = f;
      if (!panel) await wb.page.waitForTimeout(100);
    }
    assert.ok(panel, 'the review panel opened');
    assert.equal((await panel.locator('alfred-confirm #backup-note').innerText()).trim(),
      'Nothing is written until you confirm. These are new files: there is no previous version to back up.');
    await panel.locator('vscode-button#cancel').click();
  });
});

function cli(...args: string[]): string {
  return execFileSync(process.execPath, [path.join(wb.extensionDir, 'dist', 'cli', 'alfred.mjs'), ...args, '--workspace', wb.workspace], { env: { ...process.env, ...wb.env } }).toString();
}

const costUsed = (): number => (JSON.parse(cli('budget', '--json')) as { dimensions: { cost: { used: number } } }).dimensions.cost.used;

test('@alfred answers on Alfred\'s own model, its key from $ALFRED_E2E_KEY, charged exactly the priced usage the endpoint reported', async () => {
  await withScreenshot(wb.page, 'alfred-own-model', async () => {
    const costBefore = costUsed();
    await runCommand(wb.page, 'Chat: Open Chat');
    await wb.page.locator('.interactive-input-editor .monaco-editor.focused').waitFor({ timeout: 30_000 });
    await (await askInChat(wb.page, '@alfred /profile two')).getByText(/Active profile: two/).waitFor({ timeout: 60_000 });
    main.script([{ text: ['Hello ', 'from the endpoint.'], usage: { inputTokens: 1200, outputTokens: 40, cachedInputTokens: 1000 } }]);
    const response = await askInChat(wb.page, '@alfred hello');
    await response.getByText('Hello from the endpoint.').waitFor({ timeout: 60_000 });
    const sent = main.requests.filter((r) => r.path.endsWith('/chat/completions'));
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.headers.authorization, `Bearer ${KEY}`);
    // The request is charged once its stream has ended, a moment after the answer shows.
    let cost = costBefore;
    await until('the request to be charged', () => (cost = costUsed()) !== costBefore, 10_000);
    const expected = (200 * 2 + 1000 * 0.5 + 40 * 10) / 1e6;
    assert.ok(Math.abs(cost - costBefore - expected) < 1e-9, `cost moved by ${cost - costBefore}, expected ${expected}`);
  });
});

test('/doctor lists both providers healthy, with no other model anywhere, and says the user settings\' value is ignored', async () => {
  await withScreenshot(wb.page, 'alfred-doctor', async () => {
    main.script([{ text: ['ok'], usage: { inputTokens: 10, outputTokens: 1 } }]);
    backup.script([{ text: ['ok'], usage: { inputTokens: 10, outputTokens: 1 } }]);
    const response = await askInChat(wb.page, '@alfred /doctor');
    // The answer streams: read it once its last provider line is there.
    await response.getByText(/backup`?: http:\/\/127\.0\.0\.1:\d+\/v1: reachable/).waitFor({ timeout: 60_000 });
    const text = await response.innerText();
    assert.match(text, /main`?: http:\/\/127\.0\.0\.1:\d+\/v1: reachable, 1 configured/);
    assert.match(text, /backup`?: http:\/\/127\.0\.0\.1:\d+\/v1: reachable, 1 configured/);
    assert.match(text, /alfred\.providers`?: in your user settings, which VS Code ignores for this machine setting in a remote window/);
    assert.doesNotMatch(text, /ignored`?: http/);
  });
});

test('Alfred: Doctor from the palette answers in its output channel: the providers, and Alfred\'s own health', async () => {
  await withScreenshot(wb.page, 'alfred-doctor-palette', async () => {
    await runDoctor(wb.page);
    await wb.page.getByText(/✓\smain:\shttp:\/\/127\.0\.0\.1:\d+\/v1:\sreachable/).first().waitFor({ timeout: 10_000 });
    await wb.page.getByText(/✓\sbackup:\shttp:\/\/127\.0\.0\.1:\d+\/v1:\sreachable/).first().waitFor({ timeout: 10_000 });
  });
});

test('the main endpoint stops: two turns fail, the third runs on the next provider with a notice', async () => {
  await withScreenshot(wb.page, 'alfred-failover', async () => {
    await main.stop();
    for (const attempt of [1, 2]) {
      const failed = await askInChat(wb.page, `@alfred are you there? ${attempt}`);
      await failed.getByText(/The model alfred\/main\/fake-model failed/).waitFor({ timeout: 60_000 });
    }
    backup.script([{ text: ['From the backup.'], usage: { inputTokens: 300, outputTokens: 5 } }]);
    const third = await askInChat(wb.page, '@alfred and now?');
    await third.getByText('From the backup.').waitFor({ timeout: 60_000 });
    await third.getByText(/Failover.*alfred\/main\/fake-model.*failed 2 times in a row, so this turn uses .*alfred\/backup\/fake-model/).waitFor({ timeout: 10_000 });
  });
});
