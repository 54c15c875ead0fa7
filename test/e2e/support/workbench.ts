/**
 * A real VS Code (code-server) in a real browser (Debian's Chromium), with the packaged VSIX installed
 * as a user would, on a fresh copy of the sample workspace.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { launchBrowser } from '../../../scripts/lib/browser.mjs';
import { makeSandbox } from '../../../scripts/lib/sandbox.mjs';
import { ensureCodeServer } from '../../../scripts/lib/install.mjs';
import { freePort, installVsix, startCodeServer } from '../../../scripts/lib/vscodeServer.mjs';

export const STATUS_ITEM = '[id="alfred-harness.alfred-harness.alfred.status"]';
/** A `before` hook's limit for startWorkbench on a loaded 2-core machine (server, browser, workbench). */
export const WORKBENCH_START_LIMIT = 420_000;

export interface Workbench {
  page: Page;
  workspace: string;
  /** Environment of the code-server process (HOME, ALFRED_HOME), for running `alfred` beside it. */
  env: Record<string, string>;
  extensionDir: string;
  /** code-server's user data (settings, logs). */
  userDataDir: string;
  /** Another window of the same VS Code, on `folder`: its own extension host, Alfred's status bar shown. */
  openWindow(folder: string): Promise<Page>;
  close(): Promise<void>;
}

export interface WorkbenchOptions {
  /** More VSIX files to install beside Alfred's (e.g. the scripted language model). */
  extraVsix?: string[];
  /** Runs in the page, on the server's origin, before the workbench first loads (e.g. enableBuiltinChat). */
  beforeLoad?: (page: Page, baseUrl: string) => Promise<void>;
  /** More user settings. */
  settings?: Record<string, unknown>;
  /**
   * The remote machine's settings (code-server's `Machine/settings.json`), where a machine-scoped
   * setting such as `alfred.providers` belongs in a remote window: VS Code ignores its user value there.
   */
  machineSettings?: Record<string, unknown>;
  /** Files written into the workspace (relative paths) before VS Code opens it. */
  workspaceFiles?: Record<string, string>;
  /** More environment for code-server, hence the extension host (e.g. a provider's `$KEY`). */
  env?: Record<string, string>;
  /** Leave Alfred's walkthrough open (it opens on the first start after install); closed otherwise, as it takes the editor's clicks. */
  keepWalkthrough?: boolean;
}

export async function startWorkbench(options: WorkbenchOptions = {}): Promise<Workbench> {
  const vsix = process.env.ALFRED_VSIX ?? path.resolve('dist/alfred.vsix');
  if (!fs.existsSync(vsix)) throw new Error(`${vsix} is missing: run npm run package first`);
  const server = await ensureCodeServer();
  const sandbox = makeSandbox('e2e');
  installVsix(server, sandbox.extensionsDir, sandbox.userDataDir, vsix);
  for (const [rel, text] of Object.entries(options.workspaceFiles ?? {})) {
    fs.mkdirSync(path.dirname(path.join(sandbox.workspace, rel)), { recursive: true });
    fs.writeFileSync(path.join(sandbox.workspace, rel), text);
  }
  for (const extra of options.extraVsix ?? []) installVsix(server, sandbox.extensionsDir, sandbox.userDataDir, extra);
  const extensionDir = fs.readdirSync(sandbox.extensionsDir).find((d: string) => d.startsWith('alfred-harness.'));
  if (!extensionDir) throw new Error('the VSIX did not install');
  // A user's settings: no welcome page, no chat sign-in nags hiding the workbench.
  const settingsDir = path.join(sandbox.userDataDir, 'User');
  fs.mkdirSync(settingsDir, { recursive: true });
  fs.writeFileSync(path.join(settingsDir, 'settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none', 'workbench.tips.enabled': false, 'security.workspace.trust.enabled': false,
    ...options.settings,
  }));
  if (options.machineSettings) {
    fs.mkdirSync(path.join(sandbox.userDataDir, 'Machine'), { recursive: true });
    fs.writeFileSync(path.join(sandbox.userDataDir, 'Machine', 'settings.json'), JSON.stringify(options.machineSettings));
  }
  const port = await freePort();
  const cs = await startCodeServer(server, {
    port, folder: sandbox.workspace, userDataDir: sandbox.userDataDir, extensionsDir: sandbox.extensionsDir,
    env: { ...sandbox.env, ...options.env }, logFile: path.join(sandbox.dir, 'code-server.log'),
  });
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  const close = async () => {
    await browser?.close();
    cs.stop();
  };
  try {
    browser = await launchBrowser();
    const page = await browser.context.newPage();
    await options.beforeLoad?.(page, cs.url);
    const context = browser.context;
    const openWindow = async (folder: string): Promise<Page> => {
      const other = await context.newPage();
      await other.goto(`${cs.url}/?folder=${encodeURIComponent(folder)}`);
      await other.locator(STATUS_ITEM).waitFor({ timeout: 180_000 });
      return other;
    };
    await page.goto(`${cs.url}/?folder=${encodeURIComponent(sandbox.workspace)}`);
    await page.locator(STATUS_ITEM).waitFor({ timeout: 180_000 });
    if (!options.keepWalkthrough) await closeWalkthrough(page);
    return {
      page, workspace: sandbox.workspace, env: sandbox.env, extensionDir: path.join(sandbox.extensionsDir, extensionDir), userDataDir: sandbox.userDataDir,
      openWindow, close,
    };
  } catch (err) {
    // A workbench that never started still stops what it started, or the test process never exits.
    await close();
    throw err;
  }
}

/**
 * Waits until Copilot Chat has taken an extension's model as its own (its log says it activated its
 * conversation features). A prompt sent before that meets a sign-in dialog instead of the model.
 */
export async function copilotReady(wb: Workbench, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const logs = path.join(wb.userDataDir, 'logs');
  for (;;) {
    const files = fs.existsSync(logs) ? fs.readdirSync(logs, { recursive: true }).map(String).filter((f) => f.endsWith('GitHub Copilot Chat.log')) : [];
    if (files.some((f) => fs.readFileSync(path.join(logs, f), 'utf8').includes('ConversationFeature: Activating contributions'))) return;
    if (Date.now() > deadline) throw new Error('Copilot Chat did not activate its conversation features (no model of its own or from an extension?)');
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Runs a command from the palette (F1), as a user types it. */
export async function runCommand(page: Page, title: string): Promise<void> {
  await openPalette(page, title);
  await page.keyboard.press('Enter');
}

/** Alfred: Switch Role from the palette, as a user does (a raise of authority needs the user, not the CLI). */
export async function switchRoleFromPalette(page: Page, role: string): Promise<void> {
  await runCommand(page, 'Alfred: Switch Role');
  const input = page.locator('.quick-input-widget input');
  await input.fill(role);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: role }).first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator(STATUS_ITEM, { hasText: `${role} · ` }).waitFor({ timeout: 15_000 });
}

/**
 * "Alfred: Doctor" from the palette, its output shown from the top, where the providers are. The
 * report is written at once, so any of its lines on screen means all of it is there. An earlier
 * run's report stays on screen while the providers are probed, so the panel is hidden first: what
 * shows then is this run's (read too early, a CI run found the older report). (Long lines wrap:
 * each view line is its own element, so only what fits one line can be matched; the editor renders
 * spaces as no-break spaces, which \s matches.)
 */
export async function runDoctor(page: Page): Promise<void> {
  const reportLine = page.locator('.panel .view-line').filter({ hasText: /^\s*[✓!✗]\s\S/ }).first();
  // By the panel's own button: the palette's View: Hide Panel is there only while the panel shows,
  // and an Enter on a palette without it runs whatever command is listed first.
  const panel = page.locator('.part.panel');
  if (await panel.isVisible()) {
    await panel.locator('.action-label[aria-label^="Hide Panel"]').click();
    await panel.waitFor({ state: 'hidden', timeout: 10_000 });
  }
  await runCommand(page, 'Alfred: Doctor');
  await reportLine.waitFor({ timeout: 30_000 });
  await page.locator('.panel .monaco-editor').last().click();
  await page.keyboard.press('Control+Home');
}

/** Sends `prompt` from the Chat view's input, as a user types it; the response it starts. */
/** The chat list's rows (request, response, request, …), each a Monaco list row with its index in `data-index`. */
const CHAT_ROW = '.monaco-list-row:has(.interactive-item-container)';

async function rowIndexes(rows: Locator): Promise<number[]> {
  return rows.evaluateAll((els) => els.map((el) => Number((el as unknown as { getAttribute(name: string): string | null }).getAttribute('data-index'))));
}

/**
 * Sends a prompt in the Chat view and returns the locator of its own response. `.last()` alone is not
 * that: until the new rows render it is the previous response, and a wait on its text can pass on the
 * previous turn's (two failed turns read alike), so the next prompt went out while this one ran.
 */
export async function askInChat(page: Page, prompt: string): Promise<Locator> {
  // Sent while the last response is still finishing (its text can show before it is complete), a
  // prompt is queued by VS Code as steering for that request instead of starting its own.
  await page.locator('.chat-response-loading').first().waitFor({ state: 'detached', timeout: 60_000 });
  // A failed turn can show its error while VS Code still counts its request active: the chat's Cancel
  // button (a stop icon in place of Send) stays until it is over, and a prompt sent meanwhile is steering too.
  await page.locator('.chat-execute-toolbar .codicon-stop-circle').first().waitFor({ state: 'detached', timeout: 60_000 });
  const rows = page.locator(CHAT_ROW);
  const before = Math.max(-1, ...await rowIndexes(rows));
  await page.locator('.interactive-input-editor .monaco-editor').last().click();
  // @alfred is sticky: the input may already hold it.
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  // A trailing space closes the slash-command suggestions, which would otherwise take the Enter.
  await page.keyboard.type(`${prompt} `);
  await page.keyboard.press('Enter');
  // The request row shows the prompt (the participant as a decoration); its response is the next row.
  const request = rows.filter({ has: page.locator('.interactive-request'), hasText: prompt.replace(/^@\w+\s+/, '') });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const mine = (await rowIndexes(request)).filter((i) => i > before);
    if (mine.length > 0) {
      const response = page.locator(`.monaco-list-row[data-index="${Math.max(...mine) + 1}"] .interactive-item-container.interactive-response`);
      await response.waitFor({ timeout: 60_000 });
      return response;
    }
    if (Date.now() > deadline) throw new Error(`the chat shows no request "${prompt}" after row ${before}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function openPalette(page: Page, text: string): Promise<void> {
  await page.locator('.monaco-workbench').click({ position: { x: 600, y: 300 } }).catch(() => undefined);
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${text}`);
  await page.locator('.quick-input-list .monaco-list-row').first().waitFor();
}

export async function quickPickLabels(page: Page): Promise<string[]> {
  return page.locator('.quick-input-list .monaco-list-row .label-name').allInnerTexts();
}

export async function statusText(page: Page): Promise<string> {
  return (await page.locator(STATUS_ITEM).innerText()).trim();
}

/** The dashboard's document: two iframes deep inside the webview view. */
/**
 * The dashboard's document. Found by what it shows, not as the first webview: on the first start
 * after install the walkthrough opens too, and its steps' markdown is a webview of its own.
 */
export function dashboardFrame(page: Page): Promise<Frame> {
  return webviewWith(page, 'alfred-dashboard', 30_000);
}

/** Alfred opens its walkthrough once, just after it activates: its tab is closed (a middle click, as a user may). */
async function closeWalkthrough(page: Page): Promise<void> {
  const tab = page.locator('.tabs-container .tab', { hasText: 'Welcome' }).first();
  if (!await tab.waitFor({ timeout: 15_000 }).then(() => true, () => false)) return;
  await tab.click({ button: 'middle' });
  await tab.waitFor({ state: 'detached', timeout: 10_000 });
}

/** The document of the webview (panel or view) that shows `selector`. */
export async function webviewWith(page: Page, selector: string, timeoutMs = 15_000): Promise<Frame> {
  for (let i = 0; i < timeoutMs / 100; i++) {
    for (const frame of page.frames()) {
      if (await frame.locator(selector).count().catch(() => 0)) return frame;
    }
    await page.waitForTimeout(100);
  }
  throw new Error(`no webview shows ${selector}`);
}

/** Keeps a screenshot of what the user saw when a test fails. */
/** Waits until `ok()` holds, asking every 250 ms: for what Alfred does after what the page shows (a charge after the answer). */
export async function until(what: string, ok: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function withScreenshot(page: Page, name: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    const dir = path.resolve('test-results');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${name.replace(/[^\w-]+/g, '-')}.png`);
    await page.screenshot({ path: file }).catch(() => undefined);
    // CI keeps the output, not the screenshot: the chat's last rows say what the user saw there.
    const chat = await page.locator('.interactive-item-container').evaluateAll((els) => els.slice(-4)
      .map((el) => (el as unknown as { innerText: string }).innerText.replace(/\s+/g, ' ').slice(0, 300))).catch(() => []);
    (err as Error).message += `\n(screenshot: ${file})${chat.length > 0 ? `\n(the chat's last rows: ${chat.map((t) => JSON.stringify(t)).join(' | ')})` : ''}`;
    throw err;
  }
}
