/**
 * The repository paths the docs cite exist: a page that names a moved or removed file sends its
 * reader to nothing. Checked in README.md, ARCHITECTURE.md and every page of docs/, code blocks
 * included (the code map is one): each path under a top-level folder of the repository (`src/…`,
 * `test/…`, `scripts/…`, `webview/…`, `bench/…`, `roles/…`, `packs/…`, `media/…`), and each source
 * file named by a shorter path or its name alone (`integrations/hooks/output.ts`, `corpus.test.ts`), which must be
 * the end of a file's path.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const FOLDERS = ['src', 'test', 'scripts', 'webview', 'bench', 'roles', 'packs', 'media'];

const pages = (): string[] => [
  'README.md', 'ARCHITECTURE.md',
  ...fs.readdirSync(path.join(ROOT, 'docs'), { recursive: true }).map(String).filter((f) => f.endsWith('.md')).map((f) => `docs/${f.split(path.sep).join('/')}`),
];

/** Every file and folder of the repository's own folders, repository-relative with `/`, and the files at its top. */
function repositoryPaths(): Set<string> {
  const out = new Set<string>();
  for (const entry of fs.readdirSync(ROOT, { withFileTypes: true })) if (entry.isFile()) out.add(entry.name);
  for (const folder of [...FOLDERS, 'docs']) {
    if (!fs.existsSync(path.join(ROOT, folder))) continue;
    out.add(folder);
    for (const rel of fs.readdirSync(path.join(ROOT, folder), { recursive: true }).map(String)) out.add(`${folder}/${rel.split(path.sep).join('/')}`);
  }
  return out;
}

/** A placeholder for a name the reader fills in (`test/unit/<folder>/<file>.test.ts`, `roles/NAME.toml`, a glob): not a path to check. */
const placeholder = (p: string): boolean => /[<>*{}…]|NNN|\bNAME\b|\bN\b|\.\.\./.test(p);

/** The paths a page cites: `rooted` start at a top-level folder, `partial` end in a source file's name. */
export function citedPaths(text: string): { rooted: string[]; partial: string[] } {
  const rooted = new Set<string>();
  const partial = new Set<string>();
  // A path starts after a space, a quote, a bracket or a backtick; `.alfred/roles/` and `~/x/src/` are not the repository's.
  for (const m of text.matchAll(/(?<![\w./~$@-])([A-Za-z0-9_.\-/<>*{}…]+)/g)) {
    const raw = m[1]!.replace(/[.,:;]+$/, '');
    if (placeholder(raw) || /^https?:/.test(raw)) continue;
    const top = raw.split('/')[0]!;
    if (raw.includes('/') && FOLDERS.includes(top)) rooted.add(raw.replace(/\/$/, ''));
    else if (/^[\w.\-/]+\.(ts|mjs|cjs)$/.test(raw) && !raw.startsWith('dist/') && !raw.startsWith('node_modules/')) partial.add(raw);
  }
  return { rooted: [...rooted], partial: [...partial] };
}

/** What the build writes (dist/…), named by its file name alone in the docs. */
const BUILT = new Set(['alfred.cjs', 'alfred.mjs', 'alfred-main.cjs', 'alfred-hook.cjs', 'alfred-net.cjs', 'extension.js']);

test('every repository path README.md, ARCHITECTURE.md and docs/ cite exists', () => {
  const paths = repositoryPaths();
  const all = [...paths];
  const missing: string[] = [];
  for (const page of pages()) {
    const { rooted, partial } = citedPaths(fs.readFileSync(path.join(ROOT, page), 'utf8'));
    for (const p of rooted) if (!paths.has(p)) missing.push(`${page}: ${p}`);
    for (const p of partial) {
      if (BUILT.has(p) || paths.has(p)) continue;
      if (!all.some((f) => f.endsWith(`/${p}`))) missing.push(`${page}: ${p} (no file's path ends so)`);
    }
  }
  assert.deepEqual(missing, []);
});

test('the path finder reads paths as the pages write them', () => {
  const { rooted, partial } = citedPaths('see `src/core/integrations/hooks/output.ts`, (bench/network.bench.ts) and `.alfred/roles/x.toml`, '
    + '`test/unit/<folder>/<file>.test.ts`, `hooks/agentHooks.ts`: corpus.test.ts. Also ~/src/x.ts and roles/.');
  assert.deepEqual(rooted.sort(), ['bench/network.bench.ts', 'roles', 'src/core/integrations/hooks/output.ts']);
  assert.deepEqual(partial.sort(), ['corpus.test.ts', 'hooks/agentHooks.ts']);
});
