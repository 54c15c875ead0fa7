/**
 * What the user's git configuration runs from elsewhere in the home. `~/.gitconfig` itself is held
 * read-only, but git also reads the files it includes (`[include] path`, `[includeIf …] path`), runs
 * the hooks in the folder `core.hooksPath` names in every repository, and runs the programs other
 * settings name (`core.fsmonitor`, `credential.helper`, `gpg.program`, a filter's `clean`, an alias's
 * `!command`…): a script of the home that one of those names runs at the user's next commit, outside
 * any sandbox. Every word of such a setting spelled as a path (`/…` or `~/…`) inside the home counts.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'ini';
import { KeptValues } from '../base/fs/keptReads';
import { inHomeNotWorkspace, readConfigFile, type Sourced } from './homeReferences';

/** Included files are followed this deep (git's own limit is 10). */
const MAX_DEPTH = 4;

/** `section.key` (lower case) whose value names a hooks folder, or a template folder whose `hooks` git copies. */
const FOLDER_KEYS = new Set(['core.hookspath', 'init.templatedir']);
/** Keys whose value is a command (or a program) git runs; `section.*.key` for those under a subsection (an alias's `!command` too, below). */
const COMMAND_KEYS = new Set([
  'core.fsmonitor', 'core.editor', 'core.pager', 'core.sshcommand', 'core.askpass', 'credential.helper', 'credential.*.helper',
  'gpg.program', 'gpg.*.program', 'diff.external', 'diff.*.command', 'diff.*.textconv', 'merge.*.driver', 'filter.*.clean',
  'filter.*.smudge', 'filter.*.process', 'sequence.editor', 'sendemail.smtpserver', 'difftool.*.cmd', 'mergetool.*.cmd',
]);

/** `section`, `section "sub"` → [section, sub]; names lower case, as git compares them. */
function sectionOf(header: string): [string, string | undefined] {
  const m = /^\s*([^\s"]+)\s*(?:"(.*)")?\s*$/.exec(header);
  if (!m) return [header.toLowerCase(), undefined];
  const [section, sub] = m[1]!.toLowerCase().split('.', 2) as [string, string | undefined];
  return [section, m[2] ?? sub];
}

/** A value's words spelled as paths: `/x`, `~/x`, a quoted one too; `!` of an alias dropped. */
function pathWords(value: string, home: string): string[] {
  return value.replace(/^!/, '').split(/\s+/).map((w) => w.replace(/^["']|["']$/g, ''))
    .filter((w) => w.startsWith('/') || w.startsWith('~/'))
    .map((w) => path.resolve(w.startsWith('~/') ? path.join(home, w.slice(2)) : w));
}

const values = (v: unknown): string[] => (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string');

/** What one configuration file names: files it includes, folders and programs it runs. */
export function namedBy(text: string, file: string, home: string): Sourced[] {
  const out: Sourced[] = [];
  // ini nests a section at each dot of its name; a git subsection (`[credential "https://x.org"]`) is one name.
  const headers = text.replace(/^(\s*\[)([^\]\n]*)\]/gm, (_m, open: string, name: string) => `${open}${name.replaceAll('.', '\\.')}]`);
  // A key given twice (two `path` lines of one include) is kept twice.
  const config = parse(headers, { bracketedArray: false }) as Record<string, unknown>;
  for (const [header, body] of Object.entries(config)) {
    if (body === null || typeof body !== 'object') continue;
    const [section, sub] = sectionOf(header);
    for (const [rawKey, raw] of Object.entries(body as Record<string, unknown>)) {
      const key = rawKey.toLowerCase();
      const name = `${section}.${key}`;
      const wild = `${section}.*.${key}`;
      for (const value of values(raw)) {
        if ((section === 'include' || section === 'includeif') && key === 'path') {
          // A relative include is relative to the file that includes it.
          const p = value.startsWith('~/') ? path.join(home, value.slice(2)) : path.resolve(path.dirname(file), value);
          out.push({ path: p, kind: 'file' });
        } else if (FOLDER_KEYS.has(name)) {
          for (const p of pathWords(value, home)) out.push({ path: name === 'init.templatedir' ? path.join(p, 'hooks') : p, kind: 'folder' });
        } else if (COMMAND_KEYS.has(sub === undefined ? name : wild) || (section === 'alias' && value.startsWith('!'))) {
          for (const p of pathWords(value, home)) out.push({ path: p, kind: 'program' });
        }
      }
    }
  }
  return out;
}

const kept = new KeptValues<readonly Sourced[]>(4, true);

/**
 * What the global git configuration (`~/.gitconfig` or `GIT_CONFIG_GLOBAL`, and
 * `$XDG_CONFIG_HOME/git/config`) includes, runs hooks from or runs, inside the home and outside the
 * workspace (the agent's own work), whether or not it exists; included files followed. Kept while every
 * file read (or found missing) is unchanged (fs/keptReads).
 */
export function gitConfigSources(env: NodeJS.ProcessEnv, home: string = os.homedir(), workspaceFolder?: string): Sourced[] {
  const root = path.resolve(home);
  const absolute = (v: string | undefined) => (v && path.isAbsolute(v) ? path.resolve(v) : undefined);
  const xdg = absolute(env.XDG_CONFIG_HOME) ?? path.join(root, '.config');
  const files = [absolute(env.GIT_CONFIG_GLOBAL) ?? path.join(root, '.gitconfig'), path.join(xdg, 'git', 'config')];
  const key = `${root}\0${workspaceFolder}\0${files.join('\0')}`;
  return [...kept.get(key, () => readAll(files, root, workspaceFolder))];
}

function readAll(files: readonly string[], root: string, workspaceFolder: string | undefined): Sourced[] {
  // An included file outside the home is still read: what it names in the home counts.
  const counts = inHomeNotWorkspace(root, workspaceFolder);
  return namedByAll(files, root).filter((s) => counts(s.path));
}

/**
 * What git configuration files name (namedBy), and the files they include, followed (`~/` is `home`),
 * each path once; whether or not it exists. The user's configuration (above) and the repository's
 * (repositoryCode.ts) are read so.
 */
export function namedByAll(files: readonly string[], home: string): Sourced[] {
  const found = new Map<string, Sourced>();
  const seen = new Set(files);
  let level = [...files];
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const file of level) {
      const text = readConfigFile(file);
      if (text === undefined) continue;
      let named: Sourced[];
      try {
        named = namedBy(text, file, home);
      } catch {
        continue; // not read as a configuration: nothing it names is known
      }
      for (const s of named) {
        if (s.kind === 'file' && !seen.has(s.path)) {
          seen.add(s.path);
          next.push(s.path);
        }
        if (!found.has(s.path)) found.set(s.path, s);
      }
    }
    level = next;
  }
  return [...found.values()];
}
