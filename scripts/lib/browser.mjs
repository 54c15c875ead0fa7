// Debian's Chromium driven by playwright-core (which never downloads a browser).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.ALFRED_CHROMIUM || '/usr/bin/chromium';

export async function launchBrowser({ viewport = { width: 1400, height: 900 } } = {}) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  // Sized for a loaded 2-core machine: a workbench page can take well over 30 s to load there.
  context.setDefaultNavigationTimeout(120_000);
  const close = async () => {
    await context.close().catch(() => {});
    fs.rmSync(profile, { recursive: true, force: true });
  };
  return { context, close };
}

/** Keeps the bundled Copilot Chat enabled in a fresh profile, so chat works without a sign-in. */
export async function enableBuiltinChat(page, baseUrl) {
  await page.goto(`${baseUrl}/healthz`);
  // Runs in the page, where indexedDB exists.
  await page.evaluate(() => new Promise((resolve, reject) => {
    const open = globalThis.indexedDB.open('vscode-web-state-db-global');
    open.onupgradeneeded = () => open.result.createObjectStore('ItemTable');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('ItemTable')) { db.close(); resolve(); return; }
      const tx = db.transaction('ItemTable', 'readwrite');
      tx.objectStore('ItemTable').put('true', 'builtinChatExtensionEnablementMigration');
      tx.oncomplete = () => { db.close(); resolve(); };
      tx.onerror = () => reject(tx.error);
    };
  }));
}
