/**
 * Entry point of the integration tests, loaded by a real VS Code extension host (code-server here,
 * @vscode/test-electron on a desktop). Exports run(), as both expect.
 */
import Mocha from 'mocha';

export async function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'tdd',
    color: false,
    timeout: 30_000,
    reporter: process.env.ALFRED_TEST_REPORT ? 'json' : 'spec',
    reporterOptions: process.env.ALFRED_TEST_REPORT ? { output: process.env.ALFRED_TEST_REPORT } : {},
    grep: process.env.ALFRED_TEST_GREP || undefined,
  });
  // The suites are bundled into this file: expose mocha's globals first, then evaluate them.
  mocha.suite.emit('pre-require', globalThis, 'bundle', mocha);
  await import('./suites/activation.test');
  await import('./suites/testSeams.test');
  await import('./suites/tools.test');
  await import('./suites/commands.test');
  await import('./suites/chat.test');
  await import('./suites/chatCompletion.test');
  await import('./suites/completion.test');
  await import('./suites/configWrite.test');
  await import('./suites/roleEditor.test');
  await import('./suites/hookServer.test');
  await import('./suites/vscodeSandbox.test');
  await import('./suites/exportAgents.test');
  await import('./suites/governance.test');
  await import('./suites/authority.test');
  await import('./suites/mcp.test');
  await import('./suites/providers.test');
  await import('./suites/walkthrough.test');

  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} integration test(s) failed`);
}
