import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ToolError } from '../../../src/core/tools/ops/errors';
import { MAX_TREE_ENTRIES, treeOp } from '../../../src/core/tools/ops/tree';

const roots: string[] = [];
after(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

function workspace(files: Record<string, string>): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-tree-')));
  roots.push(root);
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    // A key ending in `/` is an empty folder.
    fs.mkdirSync(rel.endsWith('/') ? abs : path.dirname(abs), { recursive: true });
    if (!rel.endsWith('/')) fs.writeFileSync(abs, content);
  }
  return root;
}

test('folders first, then files, each alphabetical, indented per level', async () => {
  const ws = workspace({ 'b.txt': '', 'A.md': '', 'zeta/z.ts': '', 'alpha/beta/c.ts': '', 'alpha/a.ts': '', 'empty/': '' });
  const r = await treeOp(ws, {});
  assert.equal(r.text, [
    './',
    '  alpha/',
    '    beta/',
    '      c.ts',
    '    a.ts',
    '  empty/',
    '  zeta/',
    '    z.ts',
    '  A.md',
    '  b.txt',
  ].join('\n'));
  assert.equal(r.data.folders, 4);
  assert.equal(r.data.files, 5);
  assert.equal(r.data.truncated, false);
});

test('depth limits how far it descends', async () => {
  const ws = workspace({ 'a/b/c/d.txt': '', 'top.txt': '' });
  assert.equal((await treeOp(ws, { depth: 1 })).text, './\n  a/\n  top.txt');
  assert.equal((await treeOp(ws, { depth: 2 })).text, './\n  a/\n    b/\n  top.txt');
  const deep = await treeOp(ws, { depth: 3 });
  assert.equal(deep.text, './\n  a/\n    b/\n      c/\n  top.txt');
  assert.equal(deep.data.depth, 3);
  assert.match((await treeOp(ws, { depth: 10 })).text, /^ {8}d\.txt$/m);
});

test('ignored entries, .git and node_modules are skipped, nested .gitignore too', async () => {
  const ws = workspace({
    '.gitignore': 'build/\n*.tmp\n',
    'build/out.js': '',
    'x.tmp': '',
    'keep.ts': '',
    'node_modules/p/index.js': '',
    '.git/HEAD': '',
    'pkg/.gitignore': 'secret.txt\n',
    'pkg/secret.txt': '',
    'pkg/ok.txt': '',
  });
  const r = await treeOp(ws, {});
  assert.equal(r.text, './\n  pkg/\n    .gitignore\n    ok.txt\n  .gitignore\n  keep.ts');
  // Naming an ignored folder is deliberate: it is listed, with a note.
  const asked = await treeOp(ws, { path: 'build' });
  assert.match(asked.text, /^build\/\n {2}out\.js\n\(note: build is ignored/);
});

test('lists a sub-folder; refuses a file and a missing folder', async () => {
  const ws = workspace({ 'src/core/a.ts': '', 'src/b.ts': '' });
  assert.equal((await treeOp(ws, { path: 'src' })).text, 'src/\n  core/\n    a.ts\n  b.ts');
  await assert.rejects(treeOp(ws, { path: 'src/b.ts' }), (e: unknown) => e instanceof ToolError && e.code === 'not-directory');
  await assert.rejects(treeOp(ws, { path: 'nope' }), (e: unknown) => e instanceof ToolError && e.code === 'not-found');
  await assert.rejects(treeOp(ws, { path: '..' }), (e: unknown) => e instanceof ToolError && e.code === 'outside-workspace');
});

test(`cuts at ${MAX_TREE_ENTRIES} entries and says so`, async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < MAX_TREE_ENTRIES + 100; i++) files[`many/f${String(i).padStart(4, '0')}.txt`] = '';
  const ws = workspace(files);
  const r = await treeOp(ws, {});
  assert.equal(r.data.truncated, true);
  assert.equal(r.data.entries, MAX_TREE_ENTRIES);
  assert.match(r.text.split('\n').at(-1) as string, /cut at 2000 entries/);
  assert.equal(r.text.split('\n').length, 1 + MAX_TREE_ENTRIES + 1);
});
