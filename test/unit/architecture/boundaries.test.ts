/** The architecture's rules, checked on the source itself (lint enforces them too). */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { CONFIRM_STRINGS } from '../../../src/protocol/confirmStrings';
import { DASHBOARD_STRINGS } from '../../../src/protocol/dashboardStrings';
import { ROLE_EDITOR_STRINGS } from '../../../src/protocol/roleEditorStrings';
import { manifestTools } from '../../../src/core/tools/manifest';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { recursive: true }).map(String)
    .filter((f) => f.endsWith('.ts')).map((f) => path.join(ROOT, dir, f));
}

const IMPORTS_VSCODE = /(?:from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\))/;

test('nothing under src/core imports vscode', () => {
  const offenders = sources('src/core').filter((f) => IMPORTS_VSCODE.test(fs.readFileSync(f, 'utf8')));
  assert.deepEqual(offenders.map((f) => path.relative(ROOT, f)), []);
});

test('nothing under src/core touches the DOM', () => {
  const dom = /\b(?:document|window|HTMLElement|customElements|navigator)\s*\./;
  const offenders = sources('src/core').filter((f) => dom.test(fs.readFileSync(f, 'utf8').replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '')));
  assert.deepEqual(offenders.map((f) => path.relative(ROOT, f)), []);
});

test('the webviews and the protocol never import vscode, and the CLI neither', () => {
  const files = [...sources('webview'), ...sources('src/protocol'), ...sources('src/cli')];
  const offenders = files.filter((f) => IMPORTS_VSCODE.test(fs.readFileSync(f, 'utf8')));
  assert.deepEqual(offenders.map((f) => path.relative(ROOT, f)), []);
});

test('acquireVsCodeApi is called in one place only', () => {
  const callers = sources('webview').filter((f) => /acquireVsCodeApi\(\)/.test(fs.readFileSync(f, 'utf8')));
  assert.deepEqual(callers.map((f) => path.relative(ROOT, f)), [path.join('webview', 'shared', 'host.ts')]);
});

test('package.json declares the tools exactly as their contracts (run npm run sync-manifest)', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  assert.deepEqual(pkg.contributes.languageModelTools, manifestTools());
});

/** Each webview's strings table; webview/shared's strings must be in every table. */
const STRING_TABLES: Record<string, readonly string[]> = {
  dashboard: DASHBOARD_STRINGS,
  confirm: CONFIRM_STRINGS,
  'role-editor': ROLE_EDITOR_STRINGS,
};

function webviewStrings(dir: string): Set<string> {
  const used = new Set<string>();
  for (const f of sources(dir)) {
    for (const m of fs.readFileSync(f, 'utf8').matchAll(/\bt\('((?:[^'\\]|\\.)+)'/g)) used.add(m[1]!.replace(/\\'/g, "'"));
  }
  return used;
}

test('every string each webview shows is in its translation table', () => {
  const folders = fs.readdirSync(path.join(ROOT, 'webview'), { withFileTypes: true }).filter((d) => d.isDirectory() && d.name !== 'shared').map((d) => d.name);
  assert.deepEqual(folders.filter((d) => !STRING_TABLES[d]), [], 'a webview without a strings table');
  const shared = webviewStrings('webview/shared');
  for (const [folder, table] of Object.entries(STRING_TABLES)) {
    const missing = [...webviewStrings(`webview/${folder}`), ...shared].filter((s) => !table.includes(s));
    assert.deepEqual(missing, [], `webview/${folder}`);
  }
});

test('every %key% of package.json has an English and a Spanish text', () => {
  const pkg = fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8');
  const keys = [...new Set([...pkg.matchAll(/"%([^"%]+)%"/g)].map((m) => m[1]!))];
  for (const file of ['package.nls.json', 'package.nls.es.json']) {
    const nls = JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'));
    assert.deepEqual(keys.filter((k) => typeof nls[k] !== 'string'), [], file);
  }
});
