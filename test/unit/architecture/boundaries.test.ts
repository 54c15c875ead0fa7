/** The architecture's rules, checked on the source itself (lint enforces them too). */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { DASHBOARD_STRINGS } from '../../../src/protocol/dashboardStrings';
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

test('every string the dashboard shows is in the translation table', () => {
  const used = new Set<string>();
  for (const f of sources('webview')) {
    for (const m of fs.readFileSync(f, 'utf8').matchAll(/\bt\('((?:[^'\\]|\\.)+)'/g)) used.add(m[1]!.replace(/\\'/g, "'"));
  }
  const missing = [...used].filter((s) => !DASHBOARD_STRINGS.includes(s));
  assert.deepEqual(missing, []);
});

test('every %key% of package.json has an English and a Spanish text', () => {
  const pkg = fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8');
  const keys = [...new Set([...pkg.matchAll(/"%([^"%]+)%"/g)].map((m) => m[1]!))];
  for (const file of ['package.nls.json', 'package.nls.es.json']) {
    const nls = JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'));
    assert.deepEqual(keys.filter((k) => typeof nls[k] !== 'string'), [], file);
  }
});
