import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_TIMEOUT_S, loadChecksFile, parseChecksFile } from '../../../src/core/protect/checksFile';
import { protectedGlobsReader } from '../../../src/core/protect/protectGlobs';

const FILE = '/w/.alfred/checks.toml';
const roots: string[] = [];
after(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

describe('checks.toml', () => {
  it('reads checks with their defaults and the protect globs', () => {
    const c = parseChecksFile([
      'protect = ["test/**", ".github/**"]',
      '[[check]]', 'name = "unit"', 'run = "npm test"',
      '[[check]]', 'name = "lint"', 'run = "npx eslint ."', 'cwd = "./web/"', 'timeout_s = 1.5', 'required = false', 'env = { CI = "1" }',
    ].join('\n'), FILE);
    assert.deepEqual(c.problems, []);
    assert.deepEqual(c.protect, ['test/**', '.github/**']);
    assert.deepEqual(c.checks, [
      { name: 'unit', run: 'npm test', cwd: '', timeoutS: DEFAULT_TIMEOUT_S, required: true, env: {} },
      { name: 'lint', run: 'npx eslint .', cwd: 'web', timeoutS: 1.5, required: false, env: { CI: '1' } },
    ]);
  });

  it('names the file and the key of every problem, and drops only the bad checks', () => {
    const c = parseChecksFile([
      'protect = ["ok/**", 3, "/abs/**", "../up/**"]', 'extra = 1',
      '[[check]]', 'name = "good"', 'run = "true"',
      '[[check]]', 'run = ""', 'timeout_s = -1', 'required = "yes"', 'colour = "red"',
      '[[check]]', 'name = "good"', 'run = "again"',
      '[[check]]', 'name = "e"', 'run = "x"', 'cwd = "../elsewhere"', 'env = { "BAD-NAME" = "1", N = 2 }',
    ].join('\n'), FILE);
    const keys = c.problems.map((p) => p.key);
    assert.deepEqual(keys, [
      'extra', 'protect[1]', 'protect[2]', 'protect[3]',
      'check[1].colour', 'check[1].name', 'check[1].run', 'check[1].timeout_s', 'check[1].required',
      'check[2].name', 'check[3].cwd', 'check[3].env.BAD-NAME', 'check[3].env.N',
    ]);
    assert.ok(c.problems.every((p) => p.path === FILE));
    assert.match(c.problems.find((p) => p.key === 'check[2].name')!.message, /already the name/);
    assert.match(c.problems.find((p) => p.key === 'check[1].timeout_s')!.message, /more than 0/);
    assert.deepEqual(c.checks.map((x) => x.name), ['good']);
    assert.deepEqual(c.protect, ['ok/**']);
  });

  it('reports a TOML syntax error with its line, and [check] written as a single table', () => {
    const bad = parseChecksFile('[[check]\nname = "x"', FILE);
    assert.equal(bad.syntaxError, true);
    assert.match(bad.problems[0]!.message, /TOML syntax error at line 1/);
    const single = parseChecksFile('[check]\nname = "x"\nrun = "y"', FILE);
    assert.equal(single.problems[0]!.key, 'check');
    assert.match(single.problems[0]!.message, /\[\[check\]\]/);
  });

  it('a missing file is no checks and no problem', () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-checks-'));
    roots.push(ws);
    const c = loadChecksFile(ws);
    assert.equal(c.exists, false);
    assert.deepEqual(c.problems, []);
    assert.deepEqual(c.checks, []);
  });

  it('the protect reader follows edits and keeps the last good globs through a syntax error', () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-checks-'));
    roots.push(ws);
    const read = protectedGlobsReader(ws);
    assert.deepEqual(read(), []);
    fs.mkdirSync(path.join(ws, '.alfred'));
    const file = path.join(ws, '.alfred', 'checks.toml');
    fs.writeFileSync(file, 'protect = ["test/**"]\n');
    assert.deepEqual(read(), ['test/**']);
    fs.writeFileSync(file, 'protect = ["test/**", "spec/**"\n'); // broken
    assert.deepEqual(read(), ['test/**']);
    fs.writeFileSync(file, 'protect = ["spec/**"]   \n');
    assert.deepEqual(read(), ['spec/**']);
    fs.rmSync(file);
    assert.deepEqual(read(), []);
  });
});
