// A throw-away home for one test run: a copy of the sample workspace, Alfred's state root, and
// code-server's user data, so tests never touch the user's own ~/.alfred or settings.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const SAMPLE_WORKSPACE = path.join(ROOT, 'test', 'fixtures', 'sample-workspace');
export const ARTIFACTS = path.join(ROOT, 'test-results');

export function makeSandbox(name) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `alfred-${name}-`));
  const workspace = path.join(dir, 'workspace');
  fs.cpSync(SAMPLE_WORKSPACE, workspace, { recursive: true });
  const home = path.join(dir, 'home');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return {
    dir,
    workspace,
    home,
    alfredHome: path.join(home, '.alfred'),
    userDataDir: path.join(dir, 'user-data'),
    extensionsDir: path.join(dir, 'extensions'),
    artifacts: ARTIFACTS,
    env: { HOME: home, ALFRED_HOME: path.join(home, '.alfred'), XDG_CONFIG_HOME: path.join(home, '.config') },
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
