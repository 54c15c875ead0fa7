/**
 * The oldest VS Code Alfred claims (package.json's engines.vscode) is the one its tests run on: the
 * private code-server's VS Code. An older claim would be untested: code-server 4.110 (VS Code 1.110)
 * cannot even be installed here (its postinstall downloads ripgrep from GitHub).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { CODE_SERVER_VERSION } from '../../../scripts/lib/install.mjs';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

test('engines.vscode starts at the VS Code of the code-server the tests run on', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { vscode: string }; devDependencies: Record<string, string> };
  // code-server 4.X.Y ships VS Code 1.X.
  const tested = /^4\.(\d+)\./.exec(CODE_SERVER_VERSION)![1];
  assert.equal(pkg.engines.vscode, `^1.${tested}.0`);
  // The typings may be older (they are what the code is checked against), never newer than the claim.
  const typings = Number(/^\^?1\.(\d+)\./.exec(pkg.devDependencies['@types/vscode']!)![1]);
  assert.ok(typings <= Number(tested), `@types/vscode ${pkg.devDependencies['@types/vscode']} is newer than the engine`);
});
