/**
 * ctx_search: a regular expression or literal text over the workspace's text files, line by line,
 * skipping ignored, binary and big files, narrowed by include / exclude globs.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import picomatch from 'picomatch';
import { type OpResult, ToolError } from './errors';
import { ignoreRulesFor } from './ignoreRules';
import { looksBinary, MAX_TEXT_BYTES, splitLines } from './read';
import { isInsideWorkspace, realFolder } from './workspacePath';

export interface SearchInput {
  query: string;
  isRegex?: boolean;
  caseSensitive?: boolean;
  include?: string[];
  exclude?: string[];
  maxResults?: number;
}

export interface SearchOptions {
  signal?: AbortSignal;
}

const DEFAULT_MAX_RESULTS = 100;
const MAX_LINE_CHARS = 300;
const FOLD_CASE = process.platform === 'win32' || process.platform === 'darwin';

export function buildMatcher(input: Pick<SearchInput, 'query' | 'isRegex' | 'caseSensitive'>): RegExp {
  const flags = input.caseSensitive ? '' : 'i';
  if (!input.isRegex) return new RegExp(input.query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags);
  try {
    return new RegExp(input.query, flags);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new ToolError(`Invalid regular expression /${input.query}/: ${why}. Fix it, or set isRegex to false to search the literal text.`, 'invalid-regex');
  }
}

/**
 * A test of workspace-relative paths against globs, or undefined for no globs. A path matches when
 * it or a folder above it does, so `dist` covers `dist/a.js`; a glob without `/` (`*.ts`) matches
 * the file name at any depth.
 */
export function globTest(globs: readonly string[] | undefined): ((rel: string) => boolean) | undefined {
  const clean = (globs ?? [])
    .map((g) => g.trim().replace(/^\.\//, '').replace(/\/$/, '/**'))
    .filter((g) => g !== '')
    .map((g) => (g.includes('/') ? g : `**/${g}`));
  if (clean.length === 0) return undefined;
  const isMatch = picomatch(clean, { dot: true, nocase: FOLD_CASE, windows: false });
  return (rel) => {
    const parts = rel.split('/');
    for (let n = parts.length; n > 0; n--) if (isMatch(parts.slice(0, n).join('/'))) return true;
    return false;
  };
}

/** The matching line, trimmed, and cut to a window around the match when long. */
function shownLine(line: string, re: RegExp): string {
  const text = line.trim();
  if (text.length <= MAX_LINE_CHARS) return text;
  const at = re.exec(text)?.index ?? 0;
  const from = at < MAX_LINE_CHARS - 50 ? 0 : at - 100;
  const cut = text.slice(from, from + MAX_LINE_CHARS);
  return `${from > 0 ? '…' : ''}${cut}${from + MAX_LINE_CHARS < text.length ? '…' : ''}`;
}

export async function searchOp(workspaceFolder: string, input: SearchInput, options: SearchOptions = {}): Promise<OpResult> {
  const re = buildMatcher(input);
  const maxResults = input.maxResults ?? DEFAULT_MAX_RESULTS;
  const root = path.resolve(workspaceFolder);
  const realRoot = realFolder(root);
  const rules = ignoreRulesFor(root);
  const included = globTest(input.include);
  const excluded = globTest(input.exclude);

  const results: { path: string; line: number; text: string }[] = [];
  const filesWithMatches = new Set<string>();
  const stats = { filesSearched: 0, skippedLarge: 0, skippedBinary: 0 };
  let truncated = false;

  const scanFile = async (abs: string, rel: string): Promise<void> => {
    if (options.signal?.aborted) throw new ToolError('The search was cancelled.', 'cancelled');
    let bytes: Buffer;
    try {
      if ((await fs.promises.stat(abs)).size > MAX_TEXT_BYTES) {
        stats.skippedLarge++;
        return;
      }
      bytes = await fs.promises.readFile(abs);
    } catch {
      return; // vanished or unreadable since the folder was listed
    }
    if (looksBinary(bytes)) {
      stats.skippedBinary++;
      return;
    }
    stats.filesSearched++;
    const lines = splitLines(bytes.toString('utf8'));
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      if (!re.test(line)) continue;
      if (results.length === maxResults) {
        truncated = true;
        return;
      }
      results.push({ path: rel, line: i + 1, text: shownLine(line, re) });
      filesWithMatches.add(rel);
    }
  };

  const walk = async (dirAbs: string, dirRel: string): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dirAbs, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (truncated) return;
      const abs = path.join(dirAbs, entry.name);
      const rel = dirRel === '' ? entry.name : `${dirRel}/${entry.name}`;
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        // Followed only to files inside the workspace; linked folders could loop or leave it.
        const real = await fs.promises.realpath(abs).catch(() => undefined);
        const target = real && (await fs.promises.stat(real).catch(() => undefined));
        isDir = false;
        isFile = !!target && target.isFile() && isInsideWorkspace(realRoot, real);
      }
      if (rules.ignores(rel, isDir) || excluded?.(rel)) continue;
      if (isDir) await walk(abs, rel);
      else if (isFile && (!included || included(rel))) await scanFile(abs, rel);
    }
  };

  await walk(root, '');

  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 'es'}`;
  const files = `${filesWithMatches.size} file${filesWithMatches.size === 1 ? '' : 's'}`;
  let summary = `${plural(results.length, 'match')} in ${files} (${stats.filesSearched} searched)`;
  if (truncated) summary += `; stopped at maxResults ${maxResults}, more matches exist: narrow the query or use include/exclude`;
  const head = results.length === 0 ? `No matches for ${input.isRegex ? `/${input.query}/` : JSON.stringify(input.query)}.\n` : `${results.map((r) => `${r.path}:${r.line}: ${r.text}`).join('\n')}\n`;
  return {
    text: head + summary,
    data: { matches: results.length, files: filesWithMatches.size, truncated, results, ...stats },
  };
}
