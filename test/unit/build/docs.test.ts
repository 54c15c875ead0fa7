/** The docs pages that restate code are generated from it (npm run docs); a page edited by hand, or code changed without them, fails here. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { generatedPages } from '../../../scripts/lib/docPages.mjs';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

test('every generated docs page is as the code renders it now (run npm run docs)', async () => {
  const pages = await generatedPages();
  assert.ok(Object.keys(pages).length >= 3);
  for (const [file, text] of Object.entries(pages)) {
    const committed = fs.existsSync(path.join(ROOT, file)) ? fs.readFileSync(path.join(ROOT, file), 'utf8') : undefined;
    assert.ok(committed !== undefined, `${file} is missing: run npm run docs and commit it`);
    assert.ok(committed === text, `${file} differs from what the code says: run npm run docs and commit it`);
  }
});

test('no generated page is left over from a page the generator no longer writes', async () => {
  const pages = new Set(Object.keys(await generatedPages()));
  const onDisk = fs.readdirSync(path.join(ROOT, 'docs', 'generated')).map((f) => `docs/generated/${f}`);
  assert.deepEqual(onDisk.filter((f) => !pages.has(f)), []);
});
