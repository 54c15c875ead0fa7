/**
 * Governing a workspace as a user does it in the real VS Code: "Alfred: Govern Copilot Agent Sessions"
 * from the palette, its diff confirmed, the hook file and the per-user launcher on disk, the dashboard's
 * Governance section saying so (and when a hook last ran); then a command typed into VS Code's own
 * terminal moves the shell count and shows up in the event feed; and the section's button stops it.
 * The window has a provider of Alfred's own (a loopback endpoint), which the usage export's write to the
 * user settings must leave in force; "Alfred: Add Provider" adds another where this remote window reads it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { isCopilotHookFileGoverning } from '../../src/core/integrations/hooks/install';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer';
import { STATUS_ITEM, dashboardFrame, runCommand, runDoctor, startWorkbench, webviewWith, WORKBENCH_START_LIMIT, withScreenshot, type Workbench } from './support/workbench';

let wb: Workbench;
let dashboard: Frame;
let model: FakeModelServer;
const KEY = 'sk-e2e-0123456789abcdef';

before(async () => {
  model = await startFakeModelServer({ apiKey: KEY });
  wb = await startWorkbench({
    env: { ALFRED_E2E_KEY: KEY },
    // Machine-scoped: in a remote window such as code-server's, VS Code reads it from the machine's
    // settings, and ignores a value left in the user settings (Doctor says so).
    settings: { 'alfred.providers': [{ name: 'ignored', protocol: 'openai', baseUrl: 'http://127.0.0.1:9/v1', models: 'list' }] },
    machineSettings: { 'alfred.providers': [{ name: 'main', protocol: 'openai', baseUrl: `${model.url}/v1`, key: '$ALFRED_E2E_KEY', models: [{ id: 'fake-model' }] }] },
  });
  await wb.page.locator('.activitybar [aria-label="Alfred"]').first().click();
  dashboard = await dashboardFrame(wb.page);
  await dashboard.getByText('Context tokens').waitFor();
}, { timeout: WORKBENCH_START_LIMIT });
after(async () => {
  await wb?.close();
  await model?.close();
});

const hookFile = () => path.join(wb.workspace, '.github', 'hooks', 'alfred.json');
const launcher = () => path.join(wb.env.HOME!, '.alfred', 'bin', 'alfred');
const copilotState = () => dashboard.locator('alfred-governance-status [data-agent="copilot"] .state');

/** Shell calls used, as the status bar's accessible label states the budget line. */
async function shellUsed(): Promise<number> {
  const label = (await wb.page.locator(STATUS_ITEM).getAttribute('aria-label')) ?? '';
  const m = / \| shell (\d+)\/\d+ /.exec(label);
  assert.ok(m, `no shell count in the status bar's label: ${label}`);
  return Number(m[1]);
}

test('Govern Copilot from the palette: a confirmed diff, the hook file and the launcher on disk, the dashboard says governed', async () => {
  await withScreenshot(wb.page, 'govern-copilot', async () => {
    await copilotState().filter({ hasText: 'Not governed' }).waitFor();
    await dashboard.getByText('No hook has run in this workspace yet.').waitFor();
    // Every row alike, whatever the length of the agent's name: its state under it, the button at the right.
    const rows = dashboard.locator('alfred-governance-status [data-agent]');
    assert.equal(await rows.count(), 5, 'Copilot, the Copilot CLI, Claude Code, Codex and Gemini CLI');
    for (const row of await rows.all()) {
      const [name, state, button] = await Promise.all(['.name', '.state', 'vscode-button'].map((s) => row.locator(s).boundingBox()));
      assert.ok(name && state && button, `${await row.getAttribute('data-agent')}: a name, a state and a button`);
      assert.ok(state.y >= name.y + name.height - 1 && Math.abs(state.x - name.x) < 1, `${await row.getAttribute('data-agent')}: the state under the name (name ${JSON.stringify(name)}, state ${JSON.stringify(state)})`);
      assert.ok(button.x >= Math.max(name.x + name.width, state.x + state.width), `${await row.getAttribute('data-agent')}: the button right of both`);
    }
    await runCommand(wb.page, 'Alfred: Govern Copilot Agent Sessions');
    // First the offer to measure Copilot's spend: its OpenTelemetry export, towards Alfred, content off.
    const offer = wb.page.locator('.monaco-dialog-box');
    await offer.waitFor({ timeout: 15_000 });
    assert.match(await offer.innerText(), /OpenTelemetry export to http:\/\/127\.0\.0\.1:24318 .*Prompts and answers are not exported/s);
    await offer.getByRole('button', { name: 'Hooks and usage export' }).click();
    const confirm = await webviewWith(wb.page, 'alfred-confirm alfred-diff-block');
    const diff = (await confirm.locator('alfred-diff-block pre').allInnerTexts()).join('\n');
    assert.match(diff, /\+\+\+ b\/\.github\/hooks\/alfred\.json/);
    assert.match(diff, /\+ {4}"preToolUse": \[/);
    assert.match(diff, /\+ +"github\.copilot\.chat\.otel\.otlpEndpoint": "http:\/\/127\.0\.0\.1:24318"/);
    assert.match(diff, /\+ +"github\.copilot\.chat\.otel\.captureContent": false/);
    const userSettings = path.join(wb.userDataDir, 'User', 'settings.json');
    const settingsBefore = fs.readFileSync(userSettings, 'utf8');
    assert.equal(fs.existsSync(hookFile()), false, 'nothing is written before Confirm');
    await confirm.locator('vscode-button#confirm').click();

    await wb.page.locator('.notifications-toasts', { hasText: 'Every tool call goes through Alfred' }).waitFor({ timeout: 15_000 });
    const settings = JSON.parse(fs.readFileSync(userSettings, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(
      [settings['github.copilot.chat.otel.enabled'], settings['github.copilot.chat.otel.exporterType'], settings['github.copilot.chat.otel.otlpEndpoint'], settings['github.copilot.chat.otel.captureContent']],
      [true, 'otlp-http', 'http://127.0.0.1:24318', false]);
    for (const [key, value] of Object.entries(JSON.parse(settingsBefore) as Record<string, unknown>)) assert.deepEqual(settings[key], value, `${key} kept`);
    const text = fs.readFileSync(hookFile(), 'utf8');
    assert.ok(isCopilotHookFileGoverning(text));
    const hooks = (JSON.parse(text) as { hooks: Record<string, Array<{ bash: string; powershell: string }>> }).hooks;
    assert.deepEqual(Object.keys(hooks), ['sessionStart', 'userPromptSubmitted', 'preToolUse', 'postToolUse', 'agentStop', 'SubagentStart', 'subagentStop', 'PreCompact']);
    assert.equal(hooks.preToolUse![0]!.bash, '"$HOME/.alfred/bin/alfred" hook preToolUse');
    // The extension wrote the launcher the hook file names, in the (sandbox) home, pointing at its own CLI.
    const script = fs.readFileSync(launcher(), 'utf8');
    assert.ok(script.includes(path.join(wb.extensionDir, 'dist', 'cli')), script);
    assert.equal(fs.statSync(launcher()).mode & 0o111, 0o111, 'the launcher is executable');

    await copilotState().filter({ hasText: /^Governed$/ }).waitFor({ timeout: 15_000 });
    // Copilot reads the export settings when it starts: until a reload its spend is not measured, and the row says so.
    await dashboard.locator('alfred-governance-status [data-agent="copilot"]', { hasText: 'Model spend not measured yet: reload the window' }).waitFor({ timeout: 15_000 });
    assert.equal((await dashboard.locator('vscode-button#govern-copilot').innerText()).trim(), 'Stop governing');
    assert.equal((await dashboard.locator('alfred-governance-status [data-agent="claude-code"] .state').innerText()).trim(), 'Not governed');
  });
});

test('after that write to the user settings, Alfred\'s own provider is still in force: Alfred: Doctor lists it, and says the user value is ignored', async () => {
  await withScreenshot(wb.page, 'providers-after-govern', async () => {
    await runDoctor(wb.page);
    await wb.page.getByText(/✓\smain:\shttp:\/\/127\.0\.0\.1:\d+\/v1:\sreachable/).first().waitFor({ timeout: 10_000 });
    assert.equal(await wb.page.getByText(/no\sprovider\sconfigured/).count(), 0);
    await wb.page.getByText(/!\salfred\.providers:\sin\syour\suser\ssettings,\swhich\sVS\sCode\signores/).first().waitFor({ timeout: 10_000 });
    await wb.page.keyboard.press('Escape');
  });
});

test('Alfred: Add Provider writes to the machine\'s settings in this remote window, and the new provider is in force', async () => {
  await withScreenshot(wb.page, 'add-provider-remote', async () => {
    await runCommand(wb.page, 'Alfred: Add Provider');
    const input = wb.page.locator('.quick-input-widget input');
    // The protocol, the base URL, the key as a reference, the name: each typed, then Enter.
    // Each box says what it is and where the user is: the title, and step n of 4; the key box masks what is typed.
    const steps = [['Which protocol', 'openai'], ['', `${model.url}/v1`], ['', '$ALFRED_E2E_KEY'], ['', 'second']] as const;
    for (const [i, [placeholder, text]] of steps.entries()) {
      await input.waitFor({ state: 'visible' });
      if (placeholder) await wb.page.locator('.quick-input-widget', { has: wb.page.locator(`input[placeholder^="${placeholder}"]`) }).waitFor();
      await wb.page.locator('.quick-input-widget .quick-input-title', { hasText: `Alfred: Add Provider (${i + 1}/4)` }).waitFor({ timeout: 5_000 });
      assert.equal(await input.getAttribute('type'), i === 2 ? 'password' : 'text', `step ${i + 1}`);
      await input.fill(text);
      await wb.page.keyboard.press('Enter');
      await wb.page.waitForTimeout(300);
    }
    const confirm = await webviewWith(wb.page, 'alfred-confirm alfred-diff-block');
    const diff = await confirm.locator('alfred-diff-block pre').first().innerText();
    assert.match(diff, /Machine\/settings\.json/);
    assert.doesNotMatch(diff, /^(\+\+\+ b|--- a)\/\//m, 'one slash after b/');
    await confirm.locator('vscode-button#confirm').click();
    const machine = path.join(wb.userDataDir, 'Machine', 'settings.json');
    for (let i = 0; i < 50 && !fs.readFileSync(machine, 'utf8').includes('"second"'); i++) await wb.page.waitForTimeout(100);
    const providers = (JSON.parse(fs.readFileSync(machine, 'utf8')) as { 'alfred.providers': Array<{ name: string }> })['alfred.providers'];
    assert.deepEqual(providers.map((p) => p.name), ['main', 'second']);
    const user = JSON.parse(fs.readFileSync(path.join(wb.userDataDir, 'User', 'settings.json'), 'utf8')) as { 'alfred.providers': Array<{ name: string }> };
    assert.deepEqual(user['alfred.providers'].map((p) => p.name), ['ignored'], 'the user settings are left as they were');
    await runDoctor(wb.page);
    await wb.page.getByText(/✓\ssecond:\shttp:\/\/127\.0\.0\.1:\d+\/v1:\sreachable/).first().waitFor({ timeout: 10_000 });
    await wb.page.getByText(/✓\smain:\shttp:\/\/127\.0\.0\.1:\d+\/v1:\sreachable/).first().waitFor({ timeout: 10_000 });
    await wb.page.keyboard.press('Escape');
  });
});

test('the hook command of that file runs Alfred, and the dashboard shows when a hook last ran', async () => {
  await withScreenshot(wb.page, 'hook-last-run', async () => {
    const { bash } = (JSON.parse(fs.readFileSync(hookFile(), 'utf8')) as { hooks: { preToolUse: Array<{ bash: string }> } }).hooks.preToolUse[0]!;
    // As Copilot runs it: the command line through a shell, the event's JSON on stdin, in the workspace.
    const input = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'read_file', tool_input: { filePath: 'README.md' }, cwd: wb.workspace });
    const out = execFileSync('sh', ['-c', bash], { input, cwd: wb.workspace, env: { PATH: process.env.PATH!, ...wb.env } }).toString();
    const answer = JSON.parse(out) as { hookSpecificOutput?: { permissionDecision?: string }; permissionDecision?: string };
    assert.notEqual(answer.hookSpecificOutput?.permissionDecision ?? answer.permissionDecision, 'deny', out);
    await dashboard.locator('#last-hook', { hasText: /^Last hook: [Pp]reToolUse · read_file, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/ }).waitFor({ timeout: 15_000 });
  });
});

test('a command typed into VS Code\'s terminal moves the shell count and shows up in the event feed', async () => {
  await withScreenshot(wb.page, 'terminal-shell-count', async () => {
    const before = await shellUsed();
    await runCommand(wb.page, 'Terminal: Create New Terminal');
    const terminal = wb.page.locator('.terminal-wrapper.active .xterm');
    await terminal.waitFor({ timeout: 20_000 });
    // The prompt's decoration appears once VS Code's shell integration runs in bash: commands are seen from then on.
    await wb.page.locator('.terminal-wrapper.active .terminal-command-decoration').first().waitFor({ state: 'attached', timeout: 20_000 });
    await terminal.click();
    await wb.page.keyboard.type('echo hello');
    await wb.page.keyboard.press('Enter');

    await dashboard.locator('alfred-event-feed li.ShellExecution', { hasText: 'Terminal command echo hello exited with 0' }).first().waitFor({ timeout: 20_000 });
    await wb.page.locator(STATUS_ITEM).and(wb.page.locator(`[aria-label*="| shell ${before + 1}/"]`)).waitFor({ timeout: 10_000 });
    assert.equal(await shellUsed(), before + 1);
    await dashboard.locator('[data-dimension="shell"] .value', { hasText: new RegExp(`^${before + 1} / 100 `) }).waitFor({ timeout: 10_000 });
  });
});

test('the Governance section\'s button stops governing Copilot, through the same confirmation', async () => {
  await withScreenshot(wb.page, 'stop-governing', async () => {
    await dashboard.locator('vscode-button#govern-copilot').click();
    const confirm = await webviewWith(wb.page, 'alfred-confirm alfred-diff-block');
    assert.match(await confirm.locator('alfred-diff-block pre').innerText(), /--- a\/\.github\/hooks\/alfred\.json/);
    await confirm.locator('vscode-button#confirm').click();
    await copilotState().filter({ hasText: 'Not governed' }).waitFor({ timeout: 15_000 });
    assert.equal(fs.existsSync(hookFile()), false);
    assert.equal((await dashboard.locator('vscode-button#govern-copilot').innerText()).trim(), 'Govern');
  });
});
