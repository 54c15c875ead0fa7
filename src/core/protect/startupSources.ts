/**
 * What the shells' start-up files run from elsewhere in the home: the scripts they source and the
 * programs whose output they evaluate, as installers write those lines (`. "$HOME/.cargo/env"`,
 * `[ -s "$NVM_DIR/nvm.sh" ] && \. "$NVM_DIR/nvm.sh"`, `eval "$(~/.local/bin/mise activate bash)"`).
 * A start-up file is held read-only, but a script it sources runs just as surely in the user's next
 * terminal, outside any sandbox. Read best-effort, as a person would: only paths spelled with `~`,
 * `$HOME` or a variable the file (or the file that sourced it) set; anything else is not guessed at.
 */
import * as path from 'node:path';
import { KeptValues } from '../base/fs/keptReads';
import { inHomeNotWorkspace, readConfigFile, type Sourced } from './homeReferences';

const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|'[^']*'|[^\s;&|#]*)/;
// `source x`, `. x` and nvm's `\. x`, at the start of a command.
const SOURCED = /(?:^|[\s;&|({])(?:source|\\?\.)\s+("[^"]*"|'[^']*'|[^\s;&|)]+)/g;
// `eval "$(x …)"`: x runs at every start.
const EVALUATED = /\beval\s+"?\$\(\s*("[^"]*"|'[^']*'|[^\s;&|)"']+)/g;

/**
 * A word with `~/`, `$HOME`, `${HOME}`, `$VAR`, `${VAR}` and `${VAR:-default}` expanded from `vars`;
 * undefined when something is left that only the running shell would know.
 */
function expand(word: string, home: string, vars: ReadonlyMap<string, string>): string | undefined {
  if (/^'[^']*'$/.test(word)) return word.includes('$') ? undefined : word.slice(1, -1);
  // Double quotes may close and open within a word (`"$HOME/.config/bash/"*.sh`); single ones are not read.
  if (word.includes("'")) return undefined;
  let text = word.replaceAll('"', '');
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

const GLOB = /[*?[]/;
// `for f in ~/.bashrc.d/*.sh; do` (zsh: `for f (~/.zsh/*.zsh)`): a later `. "$f"` sources every file the words name.
const LOOP = /\bfor\s+([A-Za-z_][A-Za-z0-9_]*)\s+(?:in\s+([^;]*?)\s*(?:;|$)|\(((?:[^()]|\([^()]*\))*)\))/;
const LOOP_VARIABLE = /^"?\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?"?$/;

/** What a loop's word names: the folder of a glob (`~/.bashrc.d/*` → `~/.bashrc.d`), or the file itself. */
function loopPath(word: string, home: string, vars: ReadonlyMap<string, string>): Sourced | undefined {
  const p = expand(word, home, vars);
  if (p === undefined || !path.isAbsolute(p)) return undefined;
  const glob = p.search(GLOB);
  return glob === -1 ? { path: path.resolve(p), kind: 'file' } : { path: path.resolve(p.slice(0, p.lastIndexOf('/', glob) + 1) || '/'), kind: 'folder' };
}

/**
 * What one start-up file's text sources or evaluates, as absolute paths. `vars`: the variables set
 * before it runs (a sourced file sees its sourcer's), updated with its own assignments.
 */
export function sourcedBy(text: string, home: string, vars = new Map<string, string>()): Sourced[] {
  const loops = new Map<string, Sourced[]>();
  const out: Sourced[] = [];
  for (const line of text.split('\n')) {
    const code = line.trimStart();
    if (code.startsWith('#')) continue;
    const assigned = ASSIGNMENT.exec(code);
    if (assigned) {
      const v = expand(assigned[2]!, home, vars);
      if (v === undefined) vars.delete(assigned[1]!);
      else vars.set(assigned[1]!, v);
    }
    const loop = LOOP.exec(code);
    if (loop) {
      // Words from a command's output (`$(ls …)`) are known only to the running shell; zsh's glob qualifiers (`(N)`) go.
      const list = loop[2] ?? loop[3]!.replace(/\(N\)/g, '');
      const words = /[`()]/.test(list) ? [] : list.split(/\s+/).filter(Boolean);
      loops.set(loop[1]!, words.map((w) => loopPath(w, home, vars)).filter((p): p is Sourced => p !== undefined));
    }
    for (const pattern of [SOURCED, EVALUATED]) {
      for (const m of code.matchAll(pattern)) {
        const looped = pattern === SOURCED ? LOOP_VARIABLE.exec(m[1]!) : null;
        if (looped && loops.has(looped[1]!)) {
          out.push(...loops.get(looped[1]!)!);
          continue;
        }
        const p = expand(m[1]!, home, vars);
        if (p !== undefined && path.isAbsolute(p) && !GLOB.test(p)) out.push({ path: path.resolve(p), kind: pattern === SOURCED ? 'file' : 'program' });
      }
    }
  }
  return out;
}

/** How deep sourced files are followed: a start-up file, what it sources, and what that sources. */
const MAX_DEPTH = 3;

/**
 * What start-up files source, kept while every file read (or found missing) is unchanged (fs/keptReads),
 * in every process: the gate and the sandbox plan each ask on one shell call.
 */
const kept = new KeptValues<readonly Sourced[]>(4, true);

/**
 * What the start-up files `files` (home-relative) source or evaluate, and what the files they source
 * source in turn, inside the home and outside the workspace (a script of the project's is the
 * agent's own work), whether or not it exists; each path once. The hook server asks on every shell call.
 */
export function startupSources(home: string, files: readonly string[], workspaceFolder?: string): Sourced[] {
  const root = path.resolve(home);
  const key = `${root}\0${workspaceFolder}\0${files.join('\0')}`;
  return [...kept.get(key, () => readSources(root, files, workspaceFolder))];
}

function readSources(root: string, files: readonly string[], workspaceFolder: string | undefined): Sourced[] {
  const counts = inHomeNotWorkspace(root, workspaceFolder);
  const found = new Map<string, Sourced>();
  // Each file with the variables its sourcer had set: a start-up file starts with none.
  let level = files.map((rel) => ({ file: path.join(root, rel), vars: new Map<string, string>() }));
  const seen = new Set(level.map((l) => l.file));
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0; depth++) {
    const next: typeof level = [];
    for (const { file, vars } of level) {
      const text = readConfigFile(file);
      if (text === undefined) continue;
      const after = new Map(vars);
      const named = sourcedBy(text, root, after);
      for (const s of named.filter((n) => counts(n.path))) {
        if (!found.has(s.path)) found.set(s.path, s);
        if (s.kind === 'file' && !seen.has(s.path)) {
          seen.add(s.path);
          next.push({ file: s.path, vars: after });
        }
      }
    }
    level = next;
  }
  return [...found.values()];
}
