/**
 * What a hook call without a hook server makes Node load. Each of Node's net, child_process, readline,
 * assert and crypto (with the streams they bring) costs milliseconds of every such call's start; a
 * PreToolUse needs none of them, so none may creep back in through an import.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli', 'alfred.cjs');
const AVOIDED = ['net', 'child_process', 'readline', 'assert', 'tty', 'crypto', 'stream'];

test('alfred hook PreToolUse without a hook server loads none of net, child_process, readline, assert, tty, crypto or stream', (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-hookstart-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const ws = path.join(root, 'ws');
  fs.mkdirSync(ws);
  const report = path.join(root, 'loaded.cjs');
  fs.writeFileSync(report, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(path.join(root, 'loaded.txt'))}, process.moduleLoadList.join('\\n')));`);
  // Starting no server (ALFRED_HOOK_SERVER=existing): the call that starts one loads child_process, once per session.
  const env = { PATH: process.env.PATH, HOME: root, ALFRED_HOME: path.join(root, '.alfred'), ALFRED_ROLE: 'coder', ALFRED_HOOK_SERVER: 'existing' };
  const call = (n: number) => {
    const input = JSON.stringify({
      hook_event_name: 'PreToolUse', session_id: 's', cwd: ws, tool_name: 'run_in_terminal', tool_input: { command: `npm test -- --grep=case${n}` }, tool_use_id: `t${n}`,
    });
    const r = spawnSync(process.execPath, ['-r', report, CLI, 'hook', 'PreToolUse'], { input, env, cwd: ws, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /permissionDecision/, 'allowed');
    return fs.readFileSync(path.join(root, 'loaded.txt'), 'utf8').split('\n');
  };
  call(1); // the first call may probe the sandbox, which runs a process
  const loaded = new Set(call(2).filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length)));
  assert.ok(loaded.has('fs') && loaded.has('vm'), 'the list is the one Node keeps');
  assert.deepEqual(AVOIDED.filter((m) => loaded.has(m)), []);
});
