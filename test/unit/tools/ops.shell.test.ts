import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ToolError } from '../../../src/core/tools/ops/errors';
import { BoundedOutput, shellOp } from '../../../src/core/tools/ops/shell';
import { alive } from '../../support/processes';

const posixOnly = { skip: process.platform === 'win32' && 'uses POSIX shell commands' };
const roots: string[] = [];
after(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

function workspace(): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-shell-')));
  roots.push(root);
  fs.mkdirSync(path.join(root, 'sub'));
  return root;
}

test('captures output and exit code', posixOnly, async () => {
  const r = await shellOp(workspace(), { command: 'echo hello' });
  assert.equal(r.text, '$ echo hello\nhello\nexit code: 0');
  assert.equal(r.data.exitCode, 0);
  assert.equal(r.data.timedOut, false);
  assert.equal(r.data.cancelled, false);
  assert.equal(r.data.outputBytes, 6);
});

test('a non-zero exit is reported, stderr interleaved with stdout in arrival order', posixOnly, async () => {
  const r = await shellOp(workspace(), { command: 'echo out1; sleep 0.1; echo err1 >&2; sleep 0.1; echo out2; exit 3' });
  assert.equal(r.data.exitCode, 3);
  assert.match(r.text, /\nout1\nerr1\nout2\nexit code: 3$/);
});

test('runs in the workspace, or in cwd inside it; refuses a cwd outside', posixOnly, async () => {
  const ws = workspace();
  assert.equal((await shellOp(ws, { command: 'pwd -P' })).text.split('\n')[1], ws);
  const sub = await shellOp(ws, { command: 'pwd -P', cwd: 'sub' });
  assert.equal(sub.text.split('\n')[1], path.join(ws, 'sub'));
  assert.equal(sub.data.cwd, 'sub');
  await assert.rejects(shellOp(ws, { command: 'pwd', cwd: '..' }), (e: unknown) => e instanceof ToolError && e.code === 'outside-workspace');
  await assert.rejects(shellOp(ws, { command: 'pwd', cwd: 'nope' }), (e: unknown) => e instanceof ToolError && e.code === 'not-found');
});

test('stdin is closed and the env option is used', posixOnly, async () => {
  const r = await shellOp(workspace(), { command: 'cat; echo "[$ALFRED_X]"' }, { env: { ...process.env, ALFRED_X: 'yes' } });
  assert.match(r.text, /\n\[yes\]\nexit code: 0$/);
});

test('a timeout kills the whole process group quickly and reports timedOut', posixOnly, async () => {
  const ws = workspace();
  const started = Date.now();
  const r = await shellOp(ws, { command: 'sleep 30 & echo $! > child.pid; sleep 30', timeoutSeconds: 1 });
  assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
  assert.equal(r.data.timedOut, true);
  assert.equal(r.data.cancelled, false);
  assert.equal(r.data.exitCode, null);
  assert.match(r.text, /timed out after 1 s/);
  const child = Number(fs.readFileSync(path.join(ws, 'child.pid'), 'utf8'));
  await new Promise((res) => setTimeout(res, 200));
  assert.equal(alive(child), false, 'the background child of the command is still running');
});

test('an abort signal stops the command and reports cancelled', posixOnly, async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 300);
  const started = Date.now();
  const r = await shellOp(workspace(), { command: 'echo started; sleep 30' }, { signal: controller.signal });
  assert.ok(Date.now() - started < 4000);
  assert.equal(r.data.cancelled, true);
  assert.equal(r.data.timedOut, false);
  assert.match(r.text, /\nstarted\ncancelled/);
  const ws = workspace();
  const before = await shellOp(ws, { command: 'touch ran' }, { signal: AbortSignal.abort() });
  assert.equal(before.data.cancelled, true);
  assert.match(before.text, /cancelled before it started/);
  assert.equal(fs.existsSync(path.join(ws, 'ran')), false);
});

test('output is bounded to head and tail, saying how much was dropped', posixOnly, async () => {
  const r = await shellOp(workspace(), { command: 'seq 1 20000' }, { maxOutputBytes: 1000 });
  const total = Array.from({ length: 20000 }, (_, i) => `${i + 1}\n`).join('').length;
  assert.equal(r.data.outputBytes, total);
  assert.equal(r.data.droppedBytes, total - 1000);
  assert.match(r.text, /^\$ seq 1 20000\n1\n2\n3\n/);
  assert.match(r.text, new RegExp(`\\[${total - 1000} bytes of output dropped\\]`));
  assert.match(r.text, /\n19999\n20000\nexit code: 0$/);
});

test('a background process holding the output open does not hang the call', posixOnly, async () => {
  const started = Date.now();
  const r = await shellOp(workspace(), { command: 'sleep 3 & echo done' });
  assert.ok(Date.now() - started < 2500, `took ${Date.now() - started} ms`);
  assert.match(r.text, /\ndone\nexit code: 0$/);
});

test('BoundedOutput keeps everything up to the limit, across chunks', () => {
  const out = new BoundedOutput(10);
  for (const s of ['abc', 'defg', 'hij']) out.push(Buffer.from(s));
  assert.equal(out.text(), 'abcdefghij');
  out.push(Buffer.from('KLM'));
  assert.equal(out.dropped, 3);
  assert.equal(out.text(), 'abcde\n… [3 bytes of output dropped] …\nijKLM');
});
