// `npm run test:electron`: the same integration suite in a desktop VS Code downloaded by
// @vscode/test-electron (needs the network to reach VS Code's update service; not used in CI here).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTests } from '@vscode/test-electron';

const root = path.resolve(import.meta.dirname, '..', '..');
const sandbox = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-electron-'));
const workspace = path.join(sandbox, 'workspace');
fs.cpSync(path.join(root, 'test', 'fixtures', 'sample-workspace'), workspace, { recursive: true });
process.env.ALFRED_HOME = path.join(sandbox, 'alfred-home');

try {
  await runTests({
    // Alfred and the scripted language model the chat tests talk to.
    extensionDevelopmentPath: [root, path.join(root, 'test', 'fixtures', 'scripted-model')],
    extensionTestsPath: path.join(root, 'dist', 'test', 'integration', 'index'),
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
    extensionTestsEnv: { ALFRED_HOME: process.env.ALFRED_HOME },
  });
} catch (err) {
  console.error(`Integration tests failed: ${err instanceof Error ? err.message : err}`);
  process.exitCode = 1;
}
