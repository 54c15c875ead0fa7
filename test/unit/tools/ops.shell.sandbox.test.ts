/** ctx_shell's operation with a sandbox plan: inside the sandbox, refused before anything runs, or told once why not. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { ToolError } from '../../../src/core/tools/ops/errors';
import { shellOp } from '../../../src/core/tools/ops/shell';
import { NO_SANDBOX, ORIGINAL, sandboxFixture } from '../sandbox/helpers';

const posixOnly = { skip: process.platform === 'win32' && 'uses POSIX shell commands' };

test('a sandboxed plan: protected paths are read-only, the rest of the workspace is not', { skip: NO_SANDBOX }, async () => {
  const f = sandboxFixture();
  const refused = await shellOp(f.ws, { command: 'echo hacked > tests/x.test.js' }, { sandbox: f.plan, env: f.env });
  assert.match(refused.text, /^\$ echo hacked > tests\/x\.test\.js\n.*Read-only file system\nexit code: [1-9]/s);
  assert.equal(refused.data.sandboxed, true);
  assert.equal(f.read('tests/x.test.js'), ORIGINAL);
  const ok = await shellOp(f.ws, { command: 'echo ok > ok.js && pwd -P', cwd: 'src' }, { sandbox: f.plan, env: f.env });
  assert.equal(ok.text, `$ echo ok > ok.js && pwd -P\n${path.join(f.ws, 'src')}\nexit code: 0`);
  assert.equal(f.read('src/ok.js'), 'ok\n');
});

test('a sandboxed command that times out is stopped with everything it started', { skip: NO_SANDBOX }, async () => {
  const f = sandboxFixture();
  const marker = path.join(f.ws, 'src', 'late');
  const r = await shellOp(f.ws, { command: `(sleep 2; touch ${marker}) & sleep 30`, timeoutSeconds: 1 }, { sandbox: f.plan, env: f.env });
  assert.equal(r.data.timedOut, true);
  await new Promise((resolve) => setTimeout(resolve, 2500));
  assert.equal(fs.existsSync(marker), false);
});

test('a refused plan throws before anything runs', posixOnly, async () => {
  const f = sandboxFixture();
  const marker = path.join(f.ws, 'src', 'ran');
  await assert.rejects(
    shellOp(f.ws, { command: `touch ${marker}` }, { sandbox: { kind: 'refused', reason: 'role "r" requires a kernel sandbox' } }),
    (e: unknown) => e instanceof ToolError && /requires a kernel sandbox/.test(e.message),
  );
  assert.equal(fs.existsSync(marker), false);
});

test('unsandboxed: runs as before, the note closing the result when the caller gives it', posixOnly, async () => {
  const f = sandboxFixture();
  const note = 'no kernel sandbox here (x): protected paths are guarded by best-effort parsing only';
  const plan = { kind: 'unsandboxed', why: 'unavailable', note } as const;
  const told = await shellOp(f.ws, { command: 'echo hi' }, { sandbox: plan, note });
  assert.equal(told.text, `$ echo hi\nhi\nexit code: 0\n(${note})`);
  assert.equal(told.data.sandboxed, false);
  assert.equal((await shellOp(f.ws, { command: 'echo hi' }, { sandbox: plan })).text, '$ echo hi\nhi\nexit code: 0');
});
