/**
 * A newcomer's first answer, in the real VS Code: Alfred freshly installed, no model anywhere, a local
 * model server on LM Studio's default port (not Ollama's, which Copilot's own BYOK would list). Alfred opens its walkthrough once; the status bar says no
 * model is available; its hint opens the dashboard's Models section, which offers the server; one
 * click adds it (through the review panel's confirmation) and the chat opens with `@alfred ` typed,
 * on the server's first model, not the alphabetically first one (which cannot chat); Alfred says which.
 * Three clicks after the workbench has loaded, then the user types "hello".
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { enableBuiltinChat } from '../../scripts/lib/browser.mjs';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer';
import { startWorkbench, webviewWith, WORKBENCH_START_LIMIT, withScreenshot, type Workbench } from './support/workbench';

/** LM Studio's default port: where Alfred looks for a local server (core/models/providers/localFirst.ts). */
const LOCAL_PORT = 1234;
const HINT = '[id="alfred-harness.alfred-harness.alfred.modelHint"]';

let wb: Workbench;
let server: FakeModelServer;

before(async () => {
  server = await startFakeModelServer({ port: LOCAL_PORT });
  // The server lists its chat model first; sorted by name, the embedding model would come first.
  server.models = [{ id: 'zeta-chat' }, { id: 'alpha-embed' }];
  // The bundled chat without a sign-in (no model of its own), as a user without Copilot has it.
  wb = await startWorkbench({ beforeLoad: (page, url) => enableBuiltinChat(page, url), keepWalkthrough: true });
}, { timeout: WORKBENCH_START_LIMIT });
after(async () => {
  await wb?.close();
  await server?.close();
});

test('from nothing to an @alfred answer from a local server in three clicks', async () => {
  await withScreenshot(wb.page, 'first-answer', async () => {
    let clicks = 0;
    const click = async (target: Locator) => {
      clicks++;
      await target.click();
    };
    // First start after install: the walkthrough opens by itself.
    await wb.page.locator('.gettingStartedContainer', { hasText: 'Get started with Alfred' }).first().waitFor({ timeout: 60_000 });

    // 1. The status bar's hint: no model, so @alfred cannot answer.
    const hint = wb.page.locator(HINT);
    await hint.waitFor({ timeout: 60_000 }).catch(async (err: Error) => {
      // Say what Alfred saw: the Models section names the chat models VS Code listed.
      await wb.page.locator('.activitybar [aria-label="Alfred"]').first().click();
      const state = (await webviewWith(wb.page, 'alfred-models-setup')).locator('#models-state');
      err.message += `\n(the Models section: ${await state.innerText().catch(() => '?')} ${await state.getAttribute('title').catch(() => '')})`;
      throw err;
    });
    assert.match(await hint.innerText(), /Alfred: set up a model/);
    await click(hint);

    // 2. The dashboard's Models section, first on the page, offers the server found on its default port.
    const dashboard = await webviewWith(wb.page, 'alfred-models-setup');
    await dashboard.locator('#models-setup #models-state', { hasText: 'No chat model is available' }).waitFor({ timeout: 30_000 });
    const local = dashboard.locator(`alfred-models-setup .local[data-base-url="http://127.0.0.1:${LOCAL_PORT}/v1"]`);
    await local.getByText('zeta-chat, alpha-embed').waitFor({ timeout: 30_000 });
    await click(local.locator('vscode-button.use-local'));

    // 3. The review panel: the provider entry, confirmed.
    const confirm = await webviewWith(wb.page, 'alfred-confirm alfred-diff-block');
    assert.match(await confirm.locator('alfred-diff-block pre').first().innerText(), /"name": "lmstudio"/);
    await click(confirm.locator('vscode-button#confirm'));

    // The chat uses the server's first model, and Alfred says so; the chat opens with @alfred typed.
    await wb.page.locator('.notifications-toasts', { hasText: 'The chat now uses zeta-chat, of provider lmstudio.' }).waitFor({ timeout: 30_000 });
    const input = wb.page.locator('.interactive-input-editor .monaco-editor.focused');
    await input.waitFor({ timeout: 30_000 });
    assert.match(await input.innerText(), /@alfred/);
    server.script([{ text: ['Hello ', 'from the local server.'], usage: { inputTokens: 900, outputTokens: 5 } }]);
    await wb.page.keyboard.type('hello ');
    await wb.page.keyboard.press('Enter');
    await wb.page.locator('.interactive-response', { hasText: 'Hello from the local server.' }).first().waitFor({ timeout: 60_000 });

    const sent = server.requests.filter((r) => r.path.endsWith('/chat/completions'));
    assert.deepEqual(sent.map((r) => (r.body as { model: string }).model), ['zeta-chat']);
    assert.ok(clicks <= 3, `${clicks} clicks`);
    // With a model, the hint is gone.
    await hint.waitFor({ state: 'hidden', timeout: 30_000 });
  });
});
