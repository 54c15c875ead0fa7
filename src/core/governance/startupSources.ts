/**
 * What the shells' start-up files run from elsewhere in the home: the scripts they source and the
 * programs whose output they evaluate, as installers write those lines (`. "$HOME/.cargo/env"`,
 * `[ -s "$NVM_DIR/nvm.sh" ] && \. "$NVM_DIR/nvm.sh"`, `eval "$(~/.local/bin/mise activate bash)"`).
 * A start-up file is held read-only, but a script it sources runs just as surely in the user's next
 * terminal, outside any sandbox. Read best-effort, as a person would: only paths spelled with `~`,
 * `$HOME` or a variable the same file set earlier; anything else is not guessed at.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { relativeInside } from '../fs/relativeInside';

/** A start-up file is a page of lines; a larger one is not read. */
const MAX_BYTES = 256 * 1024;
const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|'[^']*'|[^\s;&|#]*)/;
// `source x`, `. x` and nvm's `\. x`, at the start of a command.
const SOURCED = /(?:^|[\s;&|({])(?:source|\\?\.)\s+("[^"]*"|'[^']*'|[^\s;&|)]+)/g;
// `eval "$(x …)"`: x runs at every start.
const EVALUATED = /\beval\s+"?\$\(\s*("[^"]*"|'[^']*'|[^\s;&|)"']+)/g;

const unquoted = (word: string): string => (/^(["']).*\1$/.test(word) ? word.slice(1, -1) : word);

/**
 * A word with `~/`, `$HOME`, `${HOME}`, `$VAR`, `${VAR}` and `${VAR:-default}` expanded from `vars`;
 * undefined when something is left that only the running shell would know.
 */
function expand(word: string, home: string, vars: ReadonlyMap<string, string>): string | undefined {
  let text = unquoted(word);
  if (word.startsWith("'")) return text.includes('$') ? undefined : text;
  if (text === '~' || text.startsWith('~/')) text = home + text.slice(1);
  let unknown = false;
  const value = (name: string): string | undefined => (name === 'HOME' ? home : vars.get(name));
  text = text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_m, braced: string | undefined, fallback: string | undefined, bare: string | undefined) => {
    const known = value(braced ?? bare!);
    if (known !== undefined) return known;
    const other = fallback === undefined ? undefined : expand(fallback, home, vars);
    if (other === undefined) unknown = true;
    return other ?? '';
  });
  return unknown || text.includes('$') || text.includes('`') ? undefined : text;
}

/** The absolute paths one start-up file's text sources or evaluates. */
export function sourcedBy(text: string, home: string): string[] {
  const vars = new Map<string, string>();
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const code = line.trimStart();
    if (code.startsWith('#')) continue;
    const assigned = ASSIGNMENT.exec(code);
    if (assigned) {
      const v = expand(assigned[2]!, home, vars);
      if (v === undefined) vars.delete(assigned[1]!);
      else vars.set(assigned[1]!, v);
    }
    for (const pattern of [SOURCED, EVALUATED]) {
      for (const m of code.matchAll(pattern)) {
        const p = expand(m[1]!, home, vars);
        if (p !== undefined && path.isAbsolute(p)) out.push(path.resolve(p));
      }
    }
  }
  return out;
}

let last: { key: string; paths: readonly string[] } | undefined;

/**
 * What the start-up files `files` (home-relative) source or evaluate, inside the home and outside
 * the workspace (a script of the project's is the agent's own work), whether or not it exists. Kept
 * while the start-up files are unchanged: the hook server asks on every shell call.
 */
export function startupSources(home: string, files: readonly string[], workspaceFolder?: string): string[] {
  const root = path.resolve(home);
  const found: string[] = [];
  const stamps: string[] = [root, String(workspaceFolder)];
  for (const rel of files) {
    const file = path.join(root, rel);
    try {
      const st = fs.statSync(file, { throwIfNoEntry: false });
      if (!st?.isFile() || st.size > MAX_BYTES) continue;
      found.push(file);
      stamps.push(`${file}:${st.ino}:${st.size}:${st.mtimeMs}`);
    } catch {
      // unreadable: nothing it names is known
    }
  }
  const key = stamps.join('\0');
  if (last?.key === key) return [...last.paths];
  const ws = workspaceFolder === undefined ? undefined : path.resolve(workspaceFolder);
  const named = found.flatMap((file) => {
    try {
      return sourcedBy(fs.readFileSync(file, 'utf8'), root);
    } catch {
      return [];
    }
  });
  const paths = [...new Set(named)].filter((p) => p !== root && relativeInside(root, p) !== undefined
    && !(ws !== undefined && (relativeInside(ws, p) !== undefined || relativeInside(p, ws) !== undefined)));
  last = { key, paths };
  return [...paths];
}
