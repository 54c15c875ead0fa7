import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { editOp } from '../../../src/core/tools/ops/edit';
import { ToolError } from '../../../src/core/tools/ops/errors';

const roots: string[] = [];
after(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

function workspace(files: Record<string, string>): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-edit-')));
  roots.push(root);
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  return root;
}

const read = (ws: string, rel: string) => fs.readFileSync(path.join(ws, rel), 'utf8');
const code = (expected: string, message?: RegExp) => (e: unknown) => {
  assert.ok(e instanceof ToolError, `expected a ToolError, got ${String(e)}`);
  assert.equal(e.code, expected);
  if (message) assert.match(e.message, message);
  return true;
};

test('replaces a unique occurrence, literally, and leaves no temp file', async () => {
  const ws = workspace({ 'src/a.ts': 'const a = 1;\nconst b = 2;\n' });
  const r = await editOp(ws, { path: 'src/a.ts', oldString: 'const b = 2;', newString: 'const b = "$&$1";' });
  assert.equal(read(ws, 'src/a.ts'), 'const a = 1;\nconst b = "$&$1";\n');
  assert.deepEqual(r.data, { path: 'src/a.ts', created: false, replacements: 1 });
  assert.match(r.text, /replaced 1 occurrence\b/);
  assert.deepEqual(fs.readdirSync(path.join(ws, 'src')), ['a.ts']);
});

test('no occurrence is a ToolError quoting oldString with a hint; the file is unchanged', async () => {
  const ws = workspace({ 'a.ts': 'function f() {\n    return 1;\n}\n' });
  await assert.rejects(
    editOp(ws, { path: 'a.ts', oldString: 'function f() {\n  return 1;', newString: 'x' }),
    code('no-match', /not found in a\.ts: "function f\(\) \{\\n {2}return 1;".*line 1.*ctx_read/s),
  );
  await assert.rejects(editOp(ws, { path: 'a.ts', oldString: 'zzz', newString: 'x' }), code('no-match', /ctx_read/));
  assert.equal(read(ws, 'a.ts'), 'function f() {\n    return 1;\n}\n');
});

test('two occurrences without replaceAll are refused with the count; replaceAll replaces both', async () => {
  const ws = workspace({ 'a.txt': 'foo bar foo\n' });
  await assert.rejects(editOp(ws, { path: 'a.txt', oldString: 'foo', newString: 'baz' }), code('ambiguous', /occurs 2 times/));
  assert.equal(read(ws, 'a.txt'), 'foo bar foo\n');
  const r = await editOp(ws, { path: 'a.txt', oldString: 'foo', newString: 'baz', replaceAll: true });
  assert.equal(read(ws, 'a.txt'), 'baz bar baz\n');
  assert.equal(r.data.replacements, 2);
});

test('creates a file and its parent folders; refuses to create over an existing one', async () => {
  const ws = workspace({ 'old.txt': 'keep me' });
  const r = await editOp(ws, { path: 'new/deep/file.md', newString: '# Title\nbody\n' });
  assert.equal(read(ws, 'new/deep/file.md'), '# Title\nbody\n');
  assert.deepEqual(r.data, { path: 'new/deep/file.md', created: true, replacements: 0 });
  assert.match(r.text, /Created new\/deep\/file\.md \(2 lines\)/);
  await assert.rejects(editOp(ws, { path: 'old.txt', newString: 'overwritten' }), code('exists', /oldString/));
  assert.equal(read(ws, 'old.txt'), 'keep me');
  await assert.rejects(editOp(ws, { path: 'new', newString: 'x' }), code('exists', /a folder/));
});

test('keeps the file mode', { skip: process.platform === 'win32' && 'no POSIX modes on Windows' }, async () => {
  const ws = workspace({ 'run.sh': '#!/bin/sh\necho hi\n' });
  fs.chmodSync(path.join(ws, 'run.sh'), 0o754);
  await editOp(ws, { path: 'run.sh', oldString: 'echo hi', newString: 'echo bye' });
  assert.equal(fs.statSync(path.join(ws, 'run.sh')).mode & 0o777, 0o754);
  assert.equal(read(ws, 'run.sh'), '#!/bin/sh\necho bye\n');
});

test('matches \\n in oldString against a file with CRLF line endings, keeping them', async () => {
  const ws = workspace({ 'win.txt': 'one\r\ntwo\r\nthree\r\n' });
  await editOp(ws, { path: 'win.txt', oldString: 'one\ntwo', newString: 'uno\ndos' });
  assert.equal(read(ws, 'win.txt'), 'uno\r\ndos\r\nthree\r\n');
});

test('refuses paths outside the workspace, folders, missing files and an empty oldString', async () => {
  const ws = workspace({ 'a.txt': 'x', 'dir/b.txt': 'y' });
  await assert.rejects(editOp(ws, { path: '../escape.txt', newString: 'x' }), code('outside-workspace'));
  assert.equal(fs.existsSync(path.join(ws, '..', 'escape.txt')), false);
  await assert.rejects(editOp(ws, { path: 'dir', oldString: 'y', newString: 'z' }), code('is-directory'));
  await assert.rejects(editOp(ws, { path: 'missing.txt', oldString: 'y', newString: 'z' }), code('not-found'));
  await assert.rejects(editOp(ws, { path: 'a.txt', oldString: '', newString: 'z' }), code('invalid-input'));
});

test('refuses to write through a symlink leaving the workspace', { skip: process.platform === 'win32' && 'symlinks need privileges on Windows' }, async () => {
  const outside = workspace({ 'target.txt': 'outside' });
  const ws = workspace({});
  fs.symlinkSync(outside, path.join(ws, 'out'));
  fs.symlinkSync(path.join(outside, 'ghost.txt'), path.join(ws, 'dangling.txt'));
  await assert.rejects(editOp(ws, { path: 'out/target.txt', oldString: 'outside', newString: 'hacked' }), code('outside-workspace'));
  await assert.rejects(editOp(ws, { path: 'out/new.txt', newString: 'x' }), code('outside-workspace'));
  await assert.rejects(editOp(ws, { path: 'dangling.txt', newString: 'x' }), code('outside-workspace'));
  assert.equal(read(outside, 'target.txt'), 'outside');
  assert.equal(fs.existsSync(path.join(outside, 'ghost.txt')), false);
});
