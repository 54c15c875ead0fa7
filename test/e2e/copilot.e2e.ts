/**
 * Chat in the real VS Code, answered by a scripted model (test/fixtures/scripted-model) that the bundled
 * chat takes as its own, in one workbench.
 *
 * `@alfred` in the Chat view: the answer, the pack and the tool progress; then the dashboard shows the
 * pack it used and the failover chain with its health.
 *
 * Then Copilot's own agent mode, in a new chat session, governed by Alfred's hooks: the scripted model
 * asks Copilot's agent to run a terminal command and to edit a protected test. Under a read-only role
 * both are refused (the model's next request carries the refusal, nothing happens on disk, the log has
 * the PolicyViolations); under coder the same command runs and the shell count moves. With Copilot's
 * OpenTelemetry export sent to Alfred, the usage Copilot reports for a turn is what the budget charges,
 * and a budget it exhausts pauses the agent.
 *
 * The scripted models have no price until that last test sets one in the workspace's settings: the
 * `@alfred` footer shows their cost at the fallback price, named as such.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { enableBuiltinChat } from '../../scripts/lib/browser.mjs';
import { freePort } from '../../scripts/lib/vscodeServer.mjs';
import { copilotHookFile } from '../../src/core/integrations/hooks/install';
import { workspaceId } from '../../src/core/base/state/paths';
import { PRICING_FILE } from '../../src/core/base/state/published';
import { packageScriptedModel, prepareScriptFolder, readRequests, writeScript, type RecordedRequest } from './support/scriptedModel';
import { copilotReady, dashboardFrame, runCommand, startWorkbench, switchRoleFromPalette, until, WORKBENCH_START_LIMIT, withScreenshot, type Workbench } from './support/workbench';

let wb: Workbench;

/** Prices of the scripted models, per million tokens (set by the last test). */
/** Above the fallback price in every rate: a workspace's price may only raise what a model is charged. */
const PRICE = { inputPerMTok: 4, cachedInputPerMTok: 3, outputPerMTok: 20 };

before(async () => {
  // A free port for Alfred's OTLP receiver: the default one could be taken on a shared machine.
  const port = await freePort();
  wb = await startWorkbench({
    extraVsix: [packageScriptedModel()],
    // Keeps the bundled chat enabled without a sign-in; the scripted model is then the chat's model.
    beforeLoad: (page, url) => enableBuiltinChat(page, url),
    settings: {
      'alfred.profiles': [{ name: 'pair', chain: [{ vendor: 'scripted', id: 'scripted-a' }, { vendor: 'scripted', id: 'scripted-b' }] }],
      // Copilot would ask before running a terminal command; Alfred's hooks are what this test is about.
      'chat.permissions.default': 'autoApprove', 'chat.tools.global.autoApprove': true,
      // What "Govern Copilot" writes when the user accepts the usage export (governance.e2e.ts shows that step).
      'github.copilot.chat.otel.enabled': true, 'github.copilot.chat.otel.exporterType': 'otlp-http',
      'github.copilot.chat.otel.otlpEndpoint': `http://127.0.0.1:${port}`, 'github.copilot.chat.otel.captureContent': false,
      'alfred.usage.otlpPort': port,
    },
    workspaceFiles: {
      '.github/hooks/alfred.json': copilotHookFile(),
      '.alfred/roles/frugal.toml': '[role]\nname = "frugal"\ninherits = "coder"\ndescription = "coder with one cent"\n[limits]\nmax_cost_usd = 0.01\n',
    },
  });
  prepareScriptFolder(wb.workspace);
  await copilotReady(wb);
}, { timeout: WORKBENCH_START_LIMIT });
after(async () => { await wb?.close(); });

function alfred(...args: string[]): string {
  const cli = path.join(wb.extensionDir, 'dist', 'cli', 'alfred.mjs');
  return execFileSync(process.execPath, [cli, ...args, '--workspace', wb.workspace], { env: { ...process.env, ...wb.env } }).toString();
}

function events(type: string): Array<Record<string, unknown>> {
  return alfred('events', '--tail', '500', '--json').split('\n').filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.type === type);
}

async function send(prompt: string, answer: string): Promise<void> {
  const { page } = wb;
  await page.locator('.interactive-input-editor .monaco-editor').last().click();
  await page.keyboard.type(prompt);
  await page.keyboard.press('Enter');
  await page.locator('.interactive-item-container.interactive-response').last().getByText(answer).waitFor({ timeout: 90_000 });
  // The turn can go on after that answer (one run showed a further request of the same turn taking the
  // next test's script): the next test starts once the response is complete.
  await page.locator('.interactive-item-container.interactive-response.chat-response-loading').waitFor({ state: 'detached', timeout: 90_000 });
}

/** A valid input for a tool, from the schema the model was offered: required strings, booleans and enums filled in. */
function inputFor(request: RecordedRequest & { toolSchemas?: Record<string, { properties?: Record<string, { type?: string; enum?: unknown[] }>; required?: string[] }> }, tool: string, given: Record<string, unknown>): Record<string, unknown> {
  const schema = request.toolSchemas?.[tool];
  const input: Record<string, unknown> = { ...given };
  for (const key of schema?.required ?? []) {
    if (key in input) continue;
    const prop = schema?.properties?.[key] ?? {};
    input[key] = prop.enum ? prop.enum[0] : prop.type === 'boolean' ? false : prop.type === 'number' || prop.type === 'integer' ? 30000 : `for the ${tool} test`;
  }
  return input;
}

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
    // The footer follows the answer: the model, its tokens, and its cost at the fallback price, said so.
    await response.getByText(/scripted-a · \d+ tokens in, \d+ out · cost ~\$0\.\d+ \(fallback price\)/).waitFor({ timeout: 10_000 });
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

let terminalTool = '';
let editTool = '';
let probe: RecordedRequest & { toolSchemas?: Record<string, never> };

test('Copilot\'s agent mode answers with the scripted model and offers its terminal and edit tools', async () => {
  await withScreenshot(wb.page, 'copilot-probe', async () => {
    writeScript(wb.workspace, [{ text: 'Hello from the scripted model.' }]);
    await runCommand(wb.page, 'Chat: Open Chat');
    await wb.page.locator('.interactive-input-editor .monaco-editor.focused').waitFor({ timeout: 30_000 });
    // A new session (Chat: New Chat's key), so the @alfred conversation above is no history of Copilot's
    // agent; @alfred, which sticks to the input, is taken out of it.
    await wb.page.keyboard.press('Control+L');
    await wb.page.locator('.interactive-item-container').first().waitFor({ state: 'detached', timeout: 15_000 });
    await wb.page.locator('.interactive-input-editor .monaco-editor').last().click();
    await wb.page.keyboard.press('Control+A');
    await wb.page.keyboard.press('Backspace');
    await send('Say hello', 'Hello from the scripted model.');
    probe = readRequests(wb.workspace).at(-1)! as typeof probe;
    terminalTool = probe.tools.find((t) => /^(run_in_terminal|runInTerminal)$/.test(t)) ?? '';
    editTool = probe.tools.find((t) => /^(replace_string_in_file|replaceString)$/.test(t)) ?? '';
    assert.ok(terminalTool, `a terminal tool among ${probe.tools.join(', ')}`);
    assert.ok(editTool, `an edit tool among ${probe.tools.join(', ')}`);
  });
});

test('under reviewer, Copilot\'s terminal command and its edit of a protected test are refused by Alfred', async () => {
  await withScreenshot(wb.page, 'copilot-reviewer', async () => {
    alfred('role', 'reviewer');
    const testFile = path.join(wb.workspace, 'test', 'cart.test.js');
    const before = fs.readFileSync(testFile, 'utf8');
    writeScript(wb.workspace, [
      {
        text: 'I will run a command and change the test.',
        toolCalls: [
          { name: terminalTool, input: inputFor(probe, terminalTool, { command: 'echo governed > pwned.txt', explanation: 'write a file', isBackground: false }) },
          { name: editTool, input: inputFor(probe, editTool, { filePath: testFile, oldString: "test('total sums", newString: "test('TOTAL sums" }) },
        ],
      },
      { text: 'Both were refused.' },
    ]);
    await send('Change things', 'Both were refused.');
    const results = readRequests(wb.workspace).at(-1)!.messages.flatMap((m) => m.parts).filter((p) => p.type === 'toolResult');
    const texts = results.map((r) => (r.content ?? []).join(''));
    const decisions = events('ToolCall').filter((e) => String(e.source).startsWith('hook:')).map((e) => `${String(e.tool)}:${String(e.decision ?? e.phase)}:${String(e.role)}`);
    assert.equal(texts.length, 2, JSON.stringify(texts));
    assert.ok(texts.every((t) => /Alfred \(role reviewer\)/.test(t)), `tool results ${JSON.stringify(texts)}; hook decisions ${decisions.join(', ')}`);
    for (const t of texts) assert.match(t, /Alfred \(role reviewer\)/, `the model was told why: ${t}`);
    assert.equal(fs.existsSync(path.join(wb.workspace, 'pwned.txt')), false, 'the command did not run');
    assert.equal(fs.readFileSync(testFile, 'utf8'), before, 'the protected test is unchanged');
    const violations = events('PolicyViolation').filter((e) => String(e.source).startsWith('hook:'));
    assert.deepEqual(violations.map((e) => e.tool).sort(), [editTool, terminalTool].sort());
  });
});

test('under coder the same terminal command runs and the shell count moves', async () => {
  await withScreenshot(wb.page, 'copilot-coder', async () => {
    await switchRoleFromPalette(wb.page, 'coder');
    writeScript(wb.workspace, [
      { text: 'Running it.', toolCalls: [{ name: terminalTool, input: inputFor(probe, terminalTool, { command: 'echo governed > pwned.txt', explanation: 'write a file', isBackground: false }) }] },
      { text: 'It ran.' },
    ]);
    await send('Run it', 'It ran.');
    assert.equal(fs.readFileSync(path.join(wb.workspace, 'pwned.txt'), 'utf8').trim(), 'governed');
    const calls = events('ToolCall').filter((e) => e.tool === terminalTool && e.decision === 'allow' && String(e.source).startsWith('hook:'));
    assert.equal(calls.length, 1, 'the allowed call is in the log');
    // The terminal reports the same command when it ends: it is the hook's charge, not a second one.
    await until('the terminal run to be observed', () => events('ShellExecution').some((e) => e.chargedBy === 'hook'));
    const budget = JSON.parse(alfred('budget', '--json')) as { role: string; dimensions: { shell: { used: number } } };
    assert.equal(budget.role, 'coder');
    assert.equal(budget.dimensions.shell.used, 1, 'one command, one charge (the switch to coder started a fresh budget)');
  });
});

test('under coder, Copilot can neither make itself admin, nor edit the settings, nor write a protected test through python', async () => {
  await withScreenshot(wb.page, 'copilot-governance-holds', async () => {
    const testFile = path.join(wb.workspace, 'test', 'cart.test.js');
    const before = fs.readFileSync(testFile, 'utf8');
    const settings = path.join(wb.workspace, '.vscode', 'settings.json');
    const createTool = probe.tools.find((t) => /^(create_file|createFile)$/.test(t)) ?? '';
    assert.ok(createTool, 'Copilot offers a file-creating tool');
    writeScript(wb.workspace, [
      {
        text: 'Let me loosen my rules.',
        toolCalls: [
          { name: terminalTool, input: inputFor(probe, terminalTool, { command: 'alfred role admin', explanation: 'switch role', isBackground: false }) },
          { name: createTool, input: inputFor(probe, createTool, { filePath: settings, content: '{ "alfred.role": "admin" }' }) },
          { name: terminalTool, input: inputFor(probe, terminalTool, { command: `python3 -c "open('test/cart.test.js','w').write('pwned')"`, explanation: 'edit a test', isBackground: false }) },
        ],
      },
      { text: 'None of it worked.' },
    ]);
    await send('Loosen your rules', 'None of it worked.');
    // The request carries the whole conversation: this turn's three results are the last three.
    const results = readRequests(wb.workspace).at(-1)!.messages.flatMap((m) => m.parts).filter((p) => p.type === 'toolResult');
    const texts = results.map((r) => (r.content ?? []).join('')).slice(-3);
    assert.equal(texts.length, 3, JSON.stringify(texts));
    assert.match(texts[0]!, /Alfred \(role coder\): run_in_terminal may not run alfred role NAME/);
    assert.match(texts[1]!, /Alfred \(role coder\): .*may not write .*settings\.json/);
    assert.match(texts[2]!, /Read-only file system/, `python ran in the sandbox and could not write: ${texts[2]}`);
    assert.equal(fs.readFileSync(testFile, 'utf8'), before, 'the protected test is unchanged');
    assert.equal(fs.existsSync(settings), false, 'no settings file was written');
    const status = JSON.parse(alfred('role', '--json')) as { role: string };
    assert.equal(status.role, 'coder');
  });
});

interface UsageJson { total: { calls: number; inputTokens: number; outputTokens: number; cachedInputTokens: number; measuredUsd: number }; sessions: Array<{ session: string; source: string; calls: number; inputTokens: number; outputTokens: number; cachedInputTokens: number; measuredUsd: number }> }

/**
 * Prices the scripted models in the workspace's settings (read without a reload, as the dashboard's
 * daily cap is), and waits until Alfred has read them: it publishes its prices for the hooks and the
 * CLI when its settings change.
 */
async function priceScriptedModels(): Promise<void> {
  fs.mkdirSync(path.join(wb.workspace, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(wb.workspace, '.vscode', 'settings.json'), JSON.stringify({ 'alfred.prices': { 'scripted-a': PRICE, 'scripted-b': PRICE } }));
  const published = path.join(wb.env.ALFRED_HOME!, 'state', workspaceId(wb.workspace), PRICING_FILE);
  await until('Alfred to publish the scripted models\' prices', () => fs.existsSync(published) && fs.readFileSync(published, 'utf8').includes('"scripted-b"'));
}

function cost(): number {
  return (JSON.parse(alfred('budget', '--json')) as { dimensions: { cost: { used: number } } }).dimensions.cost.used;
}

/** Usage as Copilot's agent reports it for an extension's model (OpenAI's usage object). */
const TURN_USAGE = { prompt_tokens: 12_000, completion_tokens: 400, total_tokens: 12_400, prompt_tokens_details: { cached_tokens: 10_000 } };
/** 2,000 input at $4, 10,000 cached at $3, 400 output at $20 per million. */
const TURN_COST = (2_000 * 4 + 10_000 * 3 + 400 * 20) / 1_000_000;

test('one Copilot agent turn under a one-cent role: the cost moves by exactly the priced usage Copilot exported; the exhausted budget stops the next prompt and refuses a tool call', async () => {
  await withScreenshot(wb.page, 'copilot-usage', async () => {
    await priceScriptedModels();
    // A fresh budget of $0.01; the turn costs $0.046.
    alfred('role', 'frugal');
    const usageBefore = JSON.parse(alfred('usage', '--json')) as UsageJson;
    writeScript(wb.workspace, [{ text: 'Counted.', copilotUsage: TURN_USAGE }]);
    await send('Count this turn', 'Counted.');
    let usage = usageBefore;
    await until('Copilot\'s export of the turn to be charged', () => {
      usage = JSON.parse(alfred('usage', '--json')) as UsageJson;
      return usage.total.calls > usageBefore.total.calls;
    }, 60_000);
    assert.equal(usage.total.calls, usageBefore.total.calls + 1, 'one model request');
    assert.equal(usage.total.inputTokens - usageBefore.total.inputTokens, 12_000);
    assert.equal(usage.total.outputTokens - usageBefore.total.outputTokens, 400);
    assert.equal(usage.total.cachedInputTokens - usageBefore.total.cachedInputTokens, 10_000);
    const session = usage.sessions.find((s) => s.source === 'copilot-otel');
    assert.ok(session, JSON.stringify(usage.sessions));
    // The session Copilot's hooks named: the one the prompt was submitted in.
    const prompts = events('PromptSubmitted').filter((e) => String(e.source).startsWith('hook:'));
    assert.equal(session.session, prompts.at(-1)!.agentSession);
    assert.ok(Math.abs(cost() - TURN_COST) < 1e-9, `cost ${cost()}, expected ${TURN_COST}`);
    const charged = events('ModelUsage').filter((e) => e.source === 'copilot-otel');
    assert.deepEqual(charged.map((e) => e.measured), ['reported']);
    assert.equal((JSON.parse(alfred('budget', '--json')) as { signal: string }).signal, 'EXHAUSTED');

    // The budget notification would cover the chat input.
    await runCommand(wb.page, 'Notifications: Clear All Notifications');
    const requestsBefore = readRequests(wb.workspace).length;
    writeScript(wb.workspace, [{ text: 'This must not be sent.' }]);
    const { page } = wb;
    await page.locator('.interactive-input-editor .monaco-editor').last().click();
    await page.keyboard.type('One more thing');
    await page.keyboard.press('Enter');
    // VS Code shows the stop as a collapsed "Blocked by … hook" part; opened, it says why and how to go on.
    // (The chat list is virtualised: the newest item is not always the last element in the DOM.)
    const blocked = page.getByText(/Blocked by .*hook/).last();
    await blocked.waitFor({ timeout: 60_000 });
    await blocked.click();
    await page.getByText(/Alfred paused this agent: the budget of role frugal is exhausted/).first().waitFor({ timeout: 15_000 });
    await page.getByText(/To go on: reset the budget \(Alfred: Reset Budget\), switch role/).first().waitFor({ timeout: 5_000 });
    assert.equal(readRequests(wb.workspace).length, requestsBefore, 'the model was not asked');
    // The same session's next tool call, as Copilot runs the hook file's command: refused with the budget line.
    const { bash } = (JSON.parse(fs.readFileSync(path.join(wb.workspace, '.github', 'hooks', 'alfred.json'), 'utf8')) as { hooks: { preToolUse: Array<{ bash: string }> } }).hooks.preToolUse[0]!;
    const input = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: session.session, tool_name: 'read_file', tool_input: { filePath: 'README.md' }, cwd: wb.workspace });
    const answer = JSON.parse(execFileSync('sh', ['-c', bash], { input, cwd: wb.workspace, env: { PATH: process.env.PATH!, ...wb.env } }).toString()) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
    assert.equal(answer.hookSpecificOutput?.permissionDecision, 'deny');
    assert.match(answer.hookSpecificOutput?.permissionDecisionReason ?? '', /Alfred \(role frugal\): .*EXHAUSTED/);
  });
});
