import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AlfredTestApi } from '../../src/vscode/extension';
import type { Harness } from '../../src/core/harness/harness';

export const EXTENSION_ID = 'alfred-harness.alfred-harness';

/** Alfred's test seams: its exports, which it hands out only in ExtensionMode.Test (as these tests run it). */
export async function alfred(): Promise<AlfredTestApi> {
  const ext = vscode.extensions.getExtension<AlfredTestApi | undefined>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not installed`);
  const api = ext.isActive ? ext.exports : await ext.activate();
  assert.ok(api, 'Alfred exported no test seams: it is not running in ExtensionMode.Test');
  return api;
}

export async function harness(): Promise<Harness> {
  const h = (await alfred()).harness();
  assert.ok(h, 'no harness: the test workspace is not open');
  return h;
}

export function workspaceFile(rel: string): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'no workspace folder');
  return path.join(folder.uri.fsPath, rel);
}

/** A fresh budget under `role`: every test starts from zero. */
export async function freshSession(role = 'coder'): Promise<Harness> {
  const h = await harness();
  await h.switchRole(role, 'test');
  await h.reset('test');
  return h;
}

export function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

export function invoke(name: string, input: object): Thenable<vscode.LanguageModelToolResult> {
  return vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
}

/** The error a refused tool call rejects with. */
export async function refusal(name: string, input: object): Promise<string> {
  try {
    await invoke(name, input);
  } catch (err) {
    return (err as Error).message;
  }
  assert.fail(`${name} was not refused`);
}

export function writeRole(name: string, toml: string): string {
  const file = workspaceFile(`.alfred/roles/${name}.toml`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, toml);
  return file;
}

export async function until<T>(what: string, fn: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
