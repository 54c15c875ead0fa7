// Runs the mocha integration suite inside a real VS Code extension host: code-server with the smoke
// test driver, the development extension and the tests passed in the `payload` query, as
// @vscode/test-web does. The workbench calls codeAutomationExit(code) when run() settles.
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser } from './browser.mjs';
import { ensureCodeServer } from './install.mjs';
import { freePort, startCodeServer } from './vscodeServer.mjs';
import { makeSandbox } from './sandbox.mjs';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SCRIPTED_MODEL = path.join(ROOT, 'test', 'fixtures', 'scripted-model');

export async function runIntegration({ grep } = {}) {
  const server = await ensureCodeServer();
  const sandbox = makeSandbox('integration');
  const report = path.join(sandbox.dir, 'mocha.json');
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const cs = await startCodeServer(server, {
    port,
    userDataDir: sandbox.userDataDir,
    extensionsDir: sandbox.extensionsDir,
    extraArgs: ['--vscode-option', 'enable-smoke-test-driver'],
    logFile: path.join(sandbox.dir, 'code-server.log'),
    env: { ...sandbox.env, ALFRED_TEST_REPORT: report, ALFRED_TEST_GREP: grep ?? '' },
  });
  const { context, close } = await launchBrowser();
  const lines = [];
  try {
    const page = await context.newPage();
    const exit = new Promise((resolve) => {
      page.exposeFunction('codeAutomationExit', (code) => resolve(code));
    });
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      lines.push(`[${type}] ${args.map(String).join(' ')}`);
    });
    const payload = [
      ['extensionDevelopmentPath', `vscode-remote://${host}${developmentExtensions(sandbox.dir)}`],
      ['extensionTestsPath', `vscode-remote://${host}${path.join(ROOT, 'dist', 'test', 'integration', 'index')}`],
    ];
    const url = `${cs.url}/?folder=${encodeURIComponent(sandbox.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    await page.goto(url);
    const timeout = new Promise((resolve) => setTimeout(() => resolve('timeout'), 8 * 60_000));
    const code = await Promise.race([exit, timeout]);
    const result = readReport(report);
    if (code === 'timeout') result.failures.push({ title: 'integration run', error: 'did not finish within 8 minutes' });
    else if (code !== 0 && result.failures.length === 0) {
      result.failures.push({ title: 'integration run', error: `extension host exited with code ${code}; see ${sandbox.dir}` });
    }
    if (result.failures.length) {
      fs.writeFileSync(path.join(sandbox.dir, 'workbench.log'), lines.join('\n'));
      await page.screenshot({ path: path.join(sandbox.artifacts, 'integration-failure.png') }).catch(() => {});
    }
    return { ...result, logDir: sandbox.dir };
  } finally {
    await close();
    cs.stop();
  }
}

/**
 * The workbench keeps one value per payload key, so several extensions under development go in one
 * folder without a package.json, which VS Code scans as several extensions: Alfred, and the scripted
 * language model the chat tests talk to.
 */
function developmentExtensions(dir) {
  const folder = path.join(dir, 'development-extensions');
  fs.mkdirSync(folder, { recursive: true });
  fs.symlinkSync(ROOT, path.join(folder, 'alfred'), 'dir');
  fs.symlinkSync(SCRIPTED_MODEL, path.join(folder, 'scripted-model'), 'dir');
  return folder;
}

function readReport(file) {
  if (!fs.existsSync(file)) return { passed: 0, failed: 0, tests: [], failures: [{ title: 'integration run', error: 'no mocha report was written' }] };
  const json = JSON.parse(fs.readFileSync(file, 'utf8'));
  const failures = json.failures.map((f) => ({ title: f.fullTitle, error: f.err?.stack || f.err?.message || 'failed' }));
  const tests = json.tests.map((t) => ({ title: t.fullTitle, ok: !t.err || Object.keys(t.err).length === 0, duration: t.duration }));
  return { passed: json.stats.passes, failed: json.stats.failures, pending: json.stats.pending, tests, failures };
}
