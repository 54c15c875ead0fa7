/**
 * Alfred's test seams (replace prompts.confirm, switch the harness's role, write configuration without
 * the confirmation panel) must never reach another extension: activate() hands them out only in
 * ExtensionMode.Test. Checked on the source of the composition root.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const SOURCE = fs.readFileSync(path.join(ROOT, 'src', 'vscode', 'extension.ts'), 'utf8');

/** The text of `export function activate(...) { ... }`, braces matched. */
function activateBody(source: string): string {
  const start = source.indexOf('export function activate(');
  assert.ok(start >= 0, 'extension.ts has no activate()');
  const open = source.indexOf('{', source.indexOf(')', start));
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    if (source[i] === '{') depth++;
    else if (source[i] === '}' && --depth === 0) return source.slice(open + 1, i);
  }
  assert.fail('activate() is not closed');
}

const GATE = /if\s*\(\s*context\.extensionMode\s*!==\s*vscode\.ExtensionMode\.Test\s*\)\s*return(?:\s+undefined)?\s*;/;

test('activate() returns its test seams only after a gate on ExtensionMode.Test', () => {
  const body = activateBody(SOURCE.replace(/\/\/.*$/gm, ''));
  const gate = GATE.exec(body);
  assert.ok(gate, 'activate() must return early unless context.extensionMode === vscode.ExtensionMode.Test');
  const returns = [...body.matchAll(/\breturn\b([^;]*);/g)];
  for (const r of returns) {
    if (r.index! < gate.index) assert.fail(`a return before the test-mode gate: ${r[0]}`);
  }
  const seams = returns.filter((r) => r.index! >= gate.index + gate[0].length);
  assert.equal(seams.length, 1, 'one return of the seams, after the gate');
  for (const name of ['harness', 'prompts', 'confirmations', 'writeConfig', 'chat']) assert.match(seams[0]![1]!, new RegExp(`\\b${name}\\b`), name);
});

test('activate() declares that it may export nothing', () => {
  assert.match(SOURCE, /export function activate\(context: vscode\.ExtensionContext\): AlfredTestApi \| undefined/);
});
