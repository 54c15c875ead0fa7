/** `@alfred` in the real Chat view, answered by the scripted model: the answer, the pack and the tool progress. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { enableBuiltinChat } from '../../scripts/lib/browser.mjs';
import { packageScriptedModel, prepareScriptFolder, readRequests, writeScript } from './support/scriptedModel';
import { dashboardFrame, runCommand, startWorkbench, WORKBENCH_START_LIMIT, withScreenshot, type Workbench } from './support/workbench';

let wb: Workbench;

before(async () => {
  wb = await startWorkbench({
    extraVsix: [packageScriptedModel()],
    // Keeps the bundled chat enabled without a sign-in; the scripted model is then the chat's model.
    beforeLoad: (page, url) => enableBuiltinChat(page, url),
    settings: { 'alfred.profiles': [{ name: 'pair', chain: [{ vendor: 'scripted', id: 'scripted-a' }, { vendor: 'scripted', id: 'scripted-b' }] }] },
  });
  prepareScriptFolder(wb.workspace);
}, { timeout: WORKBENCH_START_LIMIT });
after(async () => { await wb?.close(); });

test('typing @alfred in the Chat view: the pack, the tool progress and the answer', async () => {
  await withScreenshot(wb.page, 'chat-alfred', async () => {
    const { page } = wb;
    writeScript(wb.workspace, [
      { text: 'Let me read the cart. ', toolCalls: [{ name: 'ctx_read', input: { path: 'src/cart.js' } }] },
      { text: 'The cart adds up its items in total(); the tests cover it.' },
    ]);
    await runCommand(page, 'Chat: Open Chat');
    // Opening the chat focuses its input (a Monaco editor with decorations over its text area).
    await page.locator('.interactive-input-editor .monaco-editor.focused').waitFor({ timeout: 30_000 });
    await page.keyboard.type('@alfred /profile pair');
    await page.keyboard.press('Enter');
    await page.locator('.interactive-item-container.interactive-response').last().getByText(/Active profile: pair/).waitFor({ timeout: 60_000 });
    await page.keyboard.type('@alfred Which tests cover the cart?');
    await page.keyboard.press('Enter');
    const response = page.locator('.interactive-item-container.interactive-response').last();
    await response.getByText('The cart adds up its items in total(); the tests cover it.').waitFor({ timeout: 60_000 });
    // The footer follows the answer: the model, its tokens, and n/a for a model without a price.
    await response.getByText(/scripted-a · \d+ tokens in, \d+ out · cost n\/a/).waitFor({ timeout: 10_000 });
    // The chat folds the work before the answer into "Completed N steps": open it to read the pack and the tool progress.
    await response.getByText(/Completed \d+ steps?/).click();
    await response.getByText('Pack: testing').waitFor({ timeout: 10_000 });
    const steps = await response.innerText();
    assert.match(steps, /Let me read the cart\./);
    assert.match(steps, /src\/cart\.js/, `the tool call is shown: ${steps}`);
    const requests = readRequests(wb.workspace);
    assert.equal(requests.length, 2, `requests: ${JSON.stringify(requests.map((r) => r.model))}`);
    const results = requests[1]!.messages.at(-1)!.parts;
    assert.equal(results[0]!.type, 'toolResult');
    assert.match(results[0]!.content!.join(''), /function total\(items/);
  });
});

test('the dashboard shows the pack @alfred used and the failover chain with its health', async () => {
  await withScreenshot(wb.page, 'chat-dashboard', async () => {
    await wb.page.locator('.activitybar [aria-label="Alfred"]').first().click();
    const frame = await dashboardFrame(wb.page);
    const pack = frame.locator('alfred-active-pack');
    await pack.getByText('testing').waitFor({ timeout: 15_000 });
    await pack.getByText(/Chosen by its trigger words: tests/).waitFor();
    const chain = frame.locator('alfred-failover-chain');
    await chain.getByText(/pair · active/).waitFor({ timeout: 15_000 });
    const links = await chain.locator('li').allInnerTexts();
    assert.deepEqual(links.map((l) => l.trim()), ['scripted/scripted-a · active', 'scripted/scripted-b · standby']);
  });
});
