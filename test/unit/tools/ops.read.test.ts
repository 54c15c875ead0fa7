import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ToolError } from '../../../src/core/tools/ops/errors';
import { readFileOp } from '../../../src/core/tools/ops/read';

const roots: string[] = [];
after(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

function workspace(files: Record<string, string | Buffer>): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-read-')));
  roots.push(root);
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  return root;
}

const code = (expected: string, message?: RegExp) => (e: unknown) => {
  assert.ok(e instanceof ToolError, `expected a ToolError, got ${String(e)}`);
  assert.equal(e.code, expected);
  if (message) assert.match(e.message, message);
  return true;
};

test('reads a whole file as plain content', async () => {
  const ws = workspace({ 'src/a.txt': 'one\ntwo\nthree\n' });
  const r = await readFileOp(ws, { path: 'src/a.txt' });
  assert.equal(r.text, 'one\ntwo\nthree\n');
  assert.deepEqual(r.data, { path: 'src/a.txt', totalLines: 3, startLine: 1, endLine: 3, partial: false });
});

test('reads a line range, clamping endLine to the file', async () => {
  const ws = workspace({ 'a.txt': 'l1\r\nl2\r\nl3\r\nl4\r\n' });
  const r = await readFileOp(ws, { path: './a.txt', startLine: 2, endLine: 3 });
  assert.equal(r.text, 'l2\nl3');
  assert.deepEqual(r.data, { path: 'a.txt', totalLines: 4, startLine: 2, endLine: 3, partial: true });
  const tail = await readFileOp(ws, { path: 'a.txt', startLine: 3, endLine: 99 });
  assert.equal(tail.text, 'l3\nl4');
  assert.equal(tail.data.endLine, 4);
  const head = await readFileOp(ws, { path: 'a.txt', endLine: 1 });
  assert.equal(head.text, 'l1');
});

test('a bad range is refused', async () => {
  const ws = workspace({ 'a.txt': 'x\ny\n' });
  await assert.rejects(readFileOp(ws, { path: 'a.txt', startLine: 3, endLine: 2 }), code('invalid-range', /before startLine/));
  await assert.rejects(readFileOp(ws, { path: 'a.txt', startLine: 5 }), code('invalid-range', /has 2 lines/));
});

test('an empty file says so', async () => {
  const ws = workspace({ 'empty.txt': '' });
  const r = await readFileOp(ws, { path: 'empty.txt' });
  assert.equal(r.text, '(empty file)');
  assert.equal(r.data.totalLines, 0);
});

test('folders, missing files and binary files are refused', async () => {
  const ws = workspace({ 'src/a.txt': 'a', 'img.bin': Buffer.from([0x89, 0x50, 0x00, 0x47]) });
  await assert.rejects(readFileOp(ws, { path: 'src' }), code('is-directory', /ctx_tree/));
  await assert.rejects(readFileOp(ws, { path: 'nope.txt' }), code('not-found', /does not exist/));
  await assert.rejects(readFileOp(ws, { path: 'img.bin' }), code('binary'));
});

test('a file over 2 MB needs a line range, and then is read', async () => {
  const line = 'x'.repeat(99) + '\n';
  const ws = workspace({ 'big.txt': `first\n${line.repeat(22_000)}last\n` });
  await assert.rejects(readFileOp(ws, { path: 'big.txt' }), code('too-large', /line range/));
  const r = await readFileOp(ws, { path: 'big.txt', startLine: 1, endLine: 2 });
  assert.equal(r.text, `first\n${'x'.repeat(99)}`);
  assert.equal(r.data.totalLines, 22_002);
  const end = await readFileOp(ws, { path: 'big.txt', startLine: 22_002 });
  assert.equal(end.text, 'last');
});

test('paths that leave the workspace are refused, lexically or through symlinks', { skip: process.platform === 'win32' && 'symlinks need privileges on Windows' }, async () => {
  const outside = workspace({ 'secret.txt': 'secret' });
  const ws = workspace({ 'inside.txt': 'ok' });
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'link.txt'));
  fs.symlinkSync(outside, path.join(ws, 'linkdir'));
  fs.symlinkSync(path.join(ws, 'inside.txt'), path.join(ws, 'alias.txt'));
  await assert.rejects(readFileOp(ws, { path: '../secret.txt' }), code('outside-workspace'));
  await assert.rejects(readFileOp(ws, { path: 'sub/../../x' }), code('outside-workspace'));
  await assert.rejects(readFileOp(ws, { path: path.join(outside, 'secret.txt') }), code('outside-workspace'));
  await assert.rejects(readFileOp(ws, { path: 'link.txt' }), code('outside-workspace', /symbolic link/));
  await assert.rejects(readFileOp(ws, { path: 'linkdir/secret.txt' }), code('outside-workspace', /symbolic link/));
  // Inside stays allowed: a link within the workspace, and an absolute path inside it.
  assert.equal((await readFileOp(ws, { path: 'alias.txt' })).text, 'ok');
  assert.equal((await readFileOp(ws, { path: path.join(ws, 'inside.txt') })).text, 'ok');
});
