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

/** The markdown outside code fences and inline code, where links and headings live. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, (code) => code.replace(/[[\]()]/g, ' '));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of text.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} +(.+?) *$/gm)) {
    const slug = heading.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** Relative links of a markdown file: [target file (absolute), anchor or ''] pairs. */
function links(file: string): Array<{ target: string; anchor: string; raw: string }> {
  const text = prose(fs.readFileSync(file, 'utf8'));
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1])
    .filter((href) => !/^[a-z]+:/i.test(href))
    .map((href) => {
      const [p, anchor = ''] = href.split('#');
      return { target: p ? path.resolve(path.dirname(file), p) : file, anchor, raw: href };
    });
}

const markdownFiles = (): string[] => [
  path.join(ROOT, 'README.md'), path.join(ROOT, 'ARCHITECTURE.md'),
  ...fs.readdirSync(path.join(ROOT, 'docs'), { recursive: true }).map(String).filter((f) => f.endsWith('.md')).map((f) => path.join(ROOT, 'docs', f)),
];

test('README.md stays a short front page: at most 150 lines', () => {
  const lines = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length;
  assert.ok(lines <= 150, `README.md has ${lines} lines; move the detail into a page of docs/`);
});

test('every relative link in README.md, ARCHITECTURE.md and docs/ names a file that exists, and a heading that exists there', () => {
  const broken: string[] = [];
  for (const file of markdownFiles()) {
    for (const { target, anchor, raw } of links(file)) {
      const where = `${path.relative(ROOT, file)}: (${raw})`;
      if (!fs.existsSync(target)) broken.push(`${where} no such file`);
      else if (anchor && target.endsWith('.md') && !anchors(fs.readFileSync(target, 'utf8')).has(anchor)) broken.push(`${where} no such heading`);
    }
  }
  assert.deepEqual(broken, []);
});

test('every page of docs/ can be reached from README.md by following links', () => {
  const reached = new Set<string>();
  const queue = [path.join(ROOT, 'README.md')];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (reached.has(file) || !file.endsWith('.md') || !fs.existsSync(file)) continue;
    reached.add(file);
    queue.push(...links(file).map((l) => l.target));
  }
  const unreached = markdownFiles().filter((f) => !reached.has(f)).map((f) => path.relative(ROOT, f));
  assert.deepEqual(unreached, []);
});

/** Source files whose comments may cite a document: the code, its tests and scripts, the webviews. */
function sourceFiles(): string[] {
  return ['src', 'test', 'scripts', 'webview'].flatMap((dir) => fs.readdirSync(path.join(ROOT, dir), { recursive: true }).map(String)
    .filter((f) => /\.(ts|mjs|cjs|js)$/.test(f) && !f.includes('fixtures')).map((f) => path.join(ROOT, dir, f)));
}

test('no source file cites a document outside the repository', () => {
  // Spelled in parts, so that this file does not cite them itself.
  const outside = new RegExp(['DESIGN' + '\\.md', '/tmp/' + 'findings', 'shared/' + 'notes', 'notes/' + 'agent-tool-names'].join('|'));
  const offenders = sourceFiles().filter((f) => outside.test(fs.readFileSync(f, 'utf8'))).map((f) => path.relative(ROOT, f));
  assert.deepEqual(offenders, [], 'cite ARCHITECTURE.md or a page of docs/ instead, and write there what the code relies on');
});

test('a document a source comment cites, in parentheses or after "see", exists and holds the words it is cited for', () => {
  const missing: string[] = [];
  for (const file of sourceFiles()) {
    // Comment lines joined, so that a citation wrapped over two lines reads as one.
    const text = fs.readFileSync(file, 'utf8').replace(/\n\s*(?:\*|\/\/)\s*/g, ' ');
    for (const m of text.matchAll(/(?:\(|\bsee )(ARCHITECTURE\.md|docs\/[\w/-]+\.md)(?:(?:, |: )([^):;]+))?/g)) {
      const where = `${path.relative(ROOT, file)}: ${m[0]}`;
      const doc = path.join(ROOT, m[1]);
      if (!fs.existsSync(doc)) missing.push(`${where}: no such document`);
      else if (m[2] && !fs.readFileSync(doc, 'utf8').replace(/\s+/g, ' ').toLowerCase().includes(m[2].trim().toLowerCase())) missing.push(`${where}: not in ${m[1]}`);
    }
  }
  assert.deepEqual(missing, []);
});
