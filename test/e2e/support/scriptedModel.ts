/** The scripted language model (test/fixtures/scripted-model), packaged and driven through files in the workspace. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const FIXTURE = path.resolve('test/fixtures/scripted-model');

/** Packages the fixture as a VSIX (offline, a few seconds) so it installs like any extension. */
export function packageScriptedModel(): string {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-scripted-')), 'scripted-model.vsix');
  execFileSync(path.resolve('node_modules/.bin/vsce'), ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', out],
    { cwd: FIXTURE, stdio: ['ignore', 'ignore', 'inherit'] });
  return out;
}

/**
 * Creates `.scripted-model/`, where the model records its requests. It ignores itself for git, so the
 * completion snapshot does not see the model's own log grow while the Stop hook runs the checks.
 */
export function prepareScriptFolder(workspace: string): string {
  const dir = path.join(workspace, '.scripted-model');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, '.gitignore'), '*\n');
  return dir;
}

/** Queues responses: the model reads `.scripted-model/script.json` when its queue is empty. */
export function writeScript(workspace: string, steps: object[]): void {
  fs.writeFileSync(path.join(prepareScriptFolder(workspace), 'script.json'), JSON.stringify({ steps }));
}

export interface RecordedRequest {
  model: string;
  messages: Array<{ role: string; parts: Array<{ type: string; value?: string; content?: string[]; name?: string }> }>;
  tools: string[];
}

/** Every request the model received (recorded while `.scripted-model/` exists). */
export function readRequests(workspace: string): RecordedRequest[] {
  const file = path.join(workspace, '.scripted-model', 'requests.jsonl');
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as RecordedRequest);
}
