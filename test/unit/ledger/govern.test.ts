import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stateDir } from '../../../src/core/base/state/paths';
import { governSuite } from './suites/governSuite';

function freshState(): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-home-'));
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-ws-'));
  return stateDir(ws, { ALFRED_HOME: home });
}

governSuite(freshState);

test('the ledger path does not load the tokenizer (hook start-up cost)', () => {
  // tsx loads our sources through require, so a static import of tokens.ts or gpt-tokenizer would show here.
  const script = (mod: string) => `require('${mod}');
    console.log(Object.keys(require.cache).filter((k) => /gpt-tokenizer|budget[\\/]tokens/.test(k)).length);`;
  const run = (mod: string) => Number(execFileSync(process.execPath, ['--import', 'tsx', '-e', script(mod)], { cwd: path.resolve(__dirname, '../../..'), encoding: 'utf8' }).trim());
  assert.equal(run('./src/core/ledger/govern.ts'), 0);
  assert.ok(run('./src/core/rules/budget/tokens.ts') > 0, 'control: the probe does see a loaded module');
});
