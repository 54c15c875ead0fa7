/** Every user-facing string of the adapter and of the webviews has its Spanish text (l10n/bundle.l10n.es.json). */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const SPANISH: Record<string, string> = JSON.parse(fs.readFileSync(path.join(ROOT, 'l10n', 'bundle.l10n.es.json'), 'utf8'));

function files(dir: string, suffix: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { recursive: true }).map(String).filter((f) => f.endsWith(suffix)).map((f) => path.join(ROOT, dir, f));
}

/** The first argument of every `l10n.t('…')` / `l10n.t("…")` call, unescaped as JavaScript would. */
function l10nLiterals(source: string): { literals: string[]; dynamic: string[] } {
  const literals: string[] = [];
  const dynamic: string[] = [];
  for (const m of source.matchAll(/l10n\.t\(\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(`[^`]*`|[^'"\s)][^,)]*))/g)) {
    if (m[3] !== undefined) dynamic.push(m[3]);
    else literals.push(JSON.parse(`"${(m[1] ?? m[2]!).replace(/\\'/g, "'").replace(/(?<!\\)"/g, '\\"')}"`));
  }
  return { literals, dynamic };
}

const placeholders = (s: string) => [...s.matchAll(/\{\d+\}/g)].map((m) => m[0]).sort();

test('every vscode.l10n.t literal in src/vscode has a Spanish text with the same placeholders', () => {
  const missing: string[] = [];
  for (const file of files('src/vscode', '.ts')) {
    for (const s of l10nLiterals(fs.readFileSync(file, 'utf8')).literals) {
      const es = SPANISH[s];
      if (typeof es !== 'string' || !es.trim()) missing.push(`${path.relative(ROOT, file)}: ${s}`);
      else assert.deepEqual(placeholders(es), placeholders(s), `placeholders of "${s}"`);
    }
  }
  assert.deepEqual(missing, []);
});

test('l10n.t is called with a literal, or with a string from a webview table (template literals cannot be translated)', () => {
  const bad = files('src/vscode', '.ts').flatMap((file) => l10nLiterals(fs.readFileSync(file, 'utf8')).dynamic
    .filter((arg) => arg.startsWith('`')).map((arg) => `${path.relative(ROOT, file)}: ${arg}`));
  assert.deepEqual(bad, []);
});

test('every string of the webviews\' tables (src/protocol/*Strings.ts) has a Spanish text', async () => {
  const missing: string[] = [];
  const tables = files('src/protocol', 'Strings.ts');
  assert.ok(tables.length >= 3, 'the dashboard, confirmation and role editor tables');
  for (const file of tables) {
    const mod = (await import(file)) as Record<string, unknown>;
    for (const table of Object.values(mod).filter(Array.isArray) as string[][]) {
      for (const s of table) {
        if (typeof SPANISH[s] !== 'string') missing.push(`${path.relative(ROOT, file)}: ${s}`);
        else assert.deepEqual(placeholders(SPANISH[s]), placeholders(s), `placeholders of "${s}"`);
      }
    }
  }
  assert.deepEqual(missing, []);
});

test('package.nls.es.json translates every key of package.nls.json, and nothing else', () => {
  const en = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8'));
  const es = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.nls.es.json'), 'utf8'));
  assert.deepEqual(Object.keys(es).sort(), Object.keys(en).sort());
});
