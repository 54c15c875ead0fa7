import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { editOp } from '../../../src/core/tools/ops/edit';
import { ToolError } from '../../../src/core/tools/ops/errors';
import { ignoreRulesFor } from '../../../src/core/tools/ops/ignoreRules';
import { searchOp } from '../../../src/core/tools/ops/search';

const roots: string[] = [];
after(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

function workspace(files: Record<string, string | Buffer>): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-search-')));
  roots.push(root);
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  return root;
}

const paths = (data: Record<string, unknown>) => (data.results as { path: string }[]).map((r) => r.path);

test('finds literal text as path:line: text and ends with a count line', async () => {
  const ws = workspace({ 'src/a.ts': 'const x = 1;\n  needle here  \n', 'b.md': 'no\nNEEDLE\n' });
  const r = await searchOp(ws, { query: 'needle' });
  const lines = r.text.split('\n');
  assert.deepEqual(lines.slice(0, 2), ['b.md:2: NEEDLE', 'src/a.ts:2: needle here']);
  assert.equal(lines.at(-1), '2 matches in 2 files (2 searched)');
  assert.equal(r.data.matches, 2);
  assert.equal(r.data.truncated, false);
});

test('respects the root .gitignore, and always skips .git and node_modules', async () => {
  const ws = workspace({
    '.gitignore': 'dist/\n*.log\n',
    'src/a.ts': 'needle',
    'dist/a.js': 'needle',
    'debug.log': 'needle',
    'node_modules/pkg/index.js': 'needle',
    '.git/config': 'needle',
  });
  const r = await searchOp(ws, { query: 'needle' });
  assert.deepEqual(paths(r.data), ['src/a.ts']);
});

test('a nested .gitignore applies to its own folder and can re-include', async () => {
  const ws = workspace({
    '.gitignore': '*.log\n',
    'gen.ts': 'needle',
    'pkg/.gitignore': 'gen.ts\n!keep.log\n',
    'pkg/gen.ts': 'needle',
    'pkg/main.ts': 'needle',
    'pkg/keep.log': 'needle',
    'pkg/drop.log': 'needle',
    'other/keep.log': 'needle',
  });
  const r = await searchOp(ws, { query: 'needle' });
  assert.deepEqual(paths(r.data), ['gen.ts', 'pkg/keep.log', 'pkg/main.ts']);
  assert.equal(ignoreRulesFor(ws).ignores('pkg/gen.ts', false), true);
  assert.equal(ignoreRulesFor(ws).ignores('gen.ts', false), false);
});

test('include and exclude globs narrow the files', async () => {
  const ws = workspace({
    'src/a.ts': 'needle',
    'src/skip/b.ts': 'needle',
    'src/c.js': 'needle',
    'docs/readme.md': 'needle',
    '.github/ci.yml': 'needle',
  });
  assert.deepEqual(paths((await searchOp(ws, { query: 'needle', include: ['src/**'] })).data), ['src/a.ts', 'src/c.js', 'src/skip/b.ts']);
  assert.deepEqual(paths((await searchOp(ws, { query: 'needle', include: ['*.ts'] })).data), ['src/a.ts', 'src/skip/b.ts']);
  assert.deepEqual(paths((await searchOp(ws, { query: 'needle', include: ['src/**/*.ts'], exclude: ['src/skip'] })).data), ['src/a.ts']);
  assert.deepEqual(paths((await searchOp(ws, { query: 'needle', exclude: ['src/**', '*.md'] })).data), ['.github/ci.yml']);
});

test('literal vs regex, and case sensitivity', async () => {
  const ws = workspace({ 'a.txt': 'abc\na.c\nABC\nfoo(1)\n' });
  const lit = await searchOp(ws, { query: 'a.c' });
  assert.deepEqual((lit.data.results as { line: number }[]).map((x) => x.line), [2]);
  const re = await searchOp(ws, { query: 'a.c', isRegex: true });
  assert.deepEqual((re.data.results as { line: number }[]).map((x) => x.line), [1, 2, 3]);
  const cs = await searchOp(ws, { query: 'a.c', isRegex: true, caseSensitive: true });
  assert.deepEqual((cs.data.results as { line: number }[]).map((x) => x.line), [1, 2]);
  const parens = await searchOp(ws, { query: 'foo(1)' });
  assert.equal(parens.data.matches, 1);
});

test('an invalid regex is a ToolError naming the regex error', async () => {
  const ws = workspace({ 'a.txt': 'x' });
  await assert.rejects(searchOp(ws, { query: 'foo(', isRegex: true }), (e: unknown) => {
    assert.ok(e instanceof ToolError);
    assert.equal(e.code, 'invalid-regex');
    assert.match(e.message, /foo\(/);
    assert.match(e.message, /Unterminated group/);
    return true;
  });
});

test('stops at maxResults and says the results were cut', async () => {
  const ws = workspace({ 'a.txt': 'hit\n'.repeat(5) });
  const r = await searchOp(ws, { query: 'hit', maxResults: 3 });
  assert.equal(r.data.matches, 3);
  assert.equal(r.data.truncated, true);
  assert.match(r.text.split('\n').at(-1) as string, /^3 matches in 1 file .*stopped at maxResults 3/);
  const exact = await searchOp(ws, { query: 'hit', maxResults: 5 });
  assert.equal(exact.data.truncated, false);
});

test('skips binary and big files; long lines are cut to 300 characters', async () => {
  const ws = workspace({
    'bin.dat': Buffer.concat([Buffer.from('needle'), Buffer.from([0])]),
    'big.txt': 'needle\n' + 'x'.repeat(2 * 1024 * 1024 + 10),
    'long.txt': `needle ${'y'.repeat(1000)}`,
  });
  const r = await searchOp(ws, { query: 'needle' });
  assert.deepEqual(paths(r.data), ['long.txt']);
  assert.equal(r.data.skippedBinary, 1);
  assert.equal(r.data.skippedLarge, 1);
  const shown = (r.data.results as { text: string }[])[0]?.text ?? '';
  assert.ok(shown.length <= 301 && shown.endsWith('…') && shown.startsWith('needle'));
});

test('no match says so; an edit of .gitignore is seen by the next search', async () => {
  const ws = workspace({ '.gitignore': 'gen/\n', 'gen/a.ts': 'needle' });
  const none = await searchOp(ws, { query: 'needle' });
  assert.match(none.text, /^No matches for "needle"\.\n0 matches in 0 files/);
  await editOp(ws, { path: '.gitignore', oldString: 'gen/\n', newString: 'other/\n' });
  assert.deepEqual(paths((await searchOp(ws, { query: 'needle' })).data), ['gen/a.ts']);
});
