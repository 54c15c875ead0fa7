/**
 * The files of the workspace's git repository whose content git runs later, outside any sandbox,
 * wherever the repository keeps them: its configuration (`core.fsmonitor`, aliases, filters) and
 * hooks. In a plain repository they are `.git/config` and `.git/hooks`. A worktree's or a
 * submodule's `.git` is a file naming its git folder (`gitdir: …`), which may lie outside the
 * workspace; a worktree's configuration and hooks are the main repository's (its `commondir`);
 * each submodule keeps its own in `modules/<name>/` of its parent's git folder, and VS Code runs
 * `git status` in each submodule by itself. Tried under auto in a worktree: a command set
 * core.fsmonitor in the main repository's configuration, and the next `git status` in the worktree
 * ran it outside the sandbox. The pointer file counts too: pointed elsewhere, git would read a
 * configuration of the command's own; so do the files a configuration includes and the programs
 * and hook folders it names by their paths (namedBy). Only paths that exist (a folder without git
 * stays so).
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { lookup, readdir, readText, stat } from '../base/fs/keptReads';
import { namedByAll } from './gitConfigSources';

/** Files and folders of one git folder that git runs from. */
const CODE_IN_GIT_FOLDER: readonly string[] = ['config', 'config.worktree', 'hooks'];
/** Submodules within submodules are followed this deep. */
const MAX_MODULE_DEPTH = 4;
/** At most this many submodules are held: a repository with more has the rest not held. */
const MAX_MODULES = 200;

/** Absolute paths (as found, not resolved) of the workspace repository's code, those that exist; `home` is what `~/` names in its configuration. */
export function repositoryCodePaths(workspaceFolder: string, home: string = os.homedir()): string[] {
  const entry = path.join(workspaceFolder, '.git');
  // Looked up, not stat'ed: a `.git` folder changes with every git command, its entry does not. A link is followed.
  const looked = lookup(entry);
  const found = looked?.isSymbolicLink() ? stat(entry) : looked;
  if (!found) return [];
  const pointer = found.isFile() ? [entry] : [];
  const gitFolder = found.isDirectory() ? entry : found.isFile() ? pointedTo(entry) : undefined;
  if (!gitFolder) return pointer;
  const common = commonFolder(gitFolder);
  const folders = [...new Set([gitFolder, common])];
  const out = [...pointer, ...folders.flatMap(codeIn)];
  let budget = MAX_MODULES;
  let level = [...new Set(folders.map((f) => path.join(f, 'modules')))];
  for (let depth = 0; depth < MAX_MODULE_DEPTH && level.length > 0 && budget > 0; depth++) {
    const next: string[] = [];
    for (const modules of level) {
      for (const module of moduleFolders(modules)) {
        if (budget-- <= 0) break;
        out.push(...codeIn(module));
        next.push(path.join(module, 'modules'));
      }
    }
    level = next;
  }
  // What the configurations include or name as a program or a hooks folder, where it exists.
  const configs = out.filter((p) => /(^|[\\/])config(\.worktree)?$/.test(p));
  const named = namedByAll(configs, home).map((n) => n.path).filter((p) => lookup(p) !== undefined);
  return [...new Set([...out, ...named])];
}

/** The git folder a `.git` file names (`gitdir: <path>`, relative to the file's folder), when it is one. */
function pointedTo(file: string): string | undefined {
  let text: string;
  try {
    text = readText(file);
  } catch {
    return undefined;
  }
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  if (!m) return undefined;
  const folder = path.resolve(path.dirname(file), m[1]!);
  return lookup(folder)?.isDirectory() ? folder : undefined;
}

/** Where a worktree's git folder keeps what all worktrees share (its `commondir` file), else the folder itself. */
function commonFolder(gitFolder: string): string {
  const file = path.join(gitFolder, 'commondir');
  if (!lookup(file)?.isFile()) return gitFolder;
  try {
    const common = path.resolve(gitFolder, readText(file).trim());
    return lookup(common)?.isDirectory() ? common : gitFolder;
  } catch {
    return gitFolder;
  }
}

function codeIn(gitFolder: string): string[] {
  return CODE_IN_GIT_FOLDER.map((rel) => path.join(gitFolder, rel)).filter((p) => lookup(p) !== undefined);
}

/**
 * The git folders of the submodules under `modules`: a submodule's name may hold slashes
 * (`modules/libs/a`), so a folder without a `HEAD` is looked into for more.
 */
function moduleFolders(modules: string, depth = 0): string[] {
  if (depth > 3 || !lookup(modules)?.isDirectory()) return [];
  let entries;
  try {
    entries = readdir(modules);
  } catch {
    return [];
  }
  return entries.filter((e) => e.isDirectory()).flatMap((e) => {
    const folder = path.join(modules, e.name);
    return lookup(path.join(folder, 'HEAD')) ? [folder] : moduleFolders(folder, depth + 1);
  });
}
