/**
 * Live probes of a home and the command search path: what of the catalogue (protectedCatalogue.ts)
 * exists or moved there, what the shells' start-up files and git's configuration pull in, and which
 * folders of PATH an agent could write. Kept while nothing they read changed (fs/keptReads).
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { exists, KeptValues, notedEnv, readdir, runningCode, stat, wholeEnv } from '../base/fs/keptReads';
import { planFile, workspaceId } from '../base/state/paths';
import { relativeInside } from '../base/fs/relativeInside';
import { gitConfigSources } from './gitConfigSources';
import { workspaceOtherThanHome, type Sourced } from './homeReferences';
import { fixedPaths, relocatedConfiguration, STARTUP_FILES, TOOLCHAIN_FOLDERS } from './protectedCatalogue';
import { startupSources } from './startupSources';

/** What the shells' start-up files in `home` source or evaluate (startupSources.ts). */
export function startupSourced(home: string, workspaceFolder?: string): Sourced[] {
  return startupSources(home, STARTUP_FILES, workspaceFolder);
}

/**
 * The configuration a command could otherwise create where the toolchain is installed, to be made
 * empty before the sandbox holds it (an empty one changes nothing): cargo's `config.toml` (its
 * `build.rustc-wrapper` or a target's `runner` would run the checks' `cargo test` through a program
 * of the agent's), Gradle's `init.d` (every script in it runs in every build), and Go's user
 * configuration folder where Go is used (`~/go` exists), which `go env -w` writes (`GOFLAGS=-exec`).
 */
export function toolchainConfigToMake(env: NodeJS.ProcessEnv, home: string): Array<{ path: string; kind: 'file' | 'folder' }> {
  const out: Array<{ path: string; kind: 'file' | 'folder' }> = [];
  for (const { folder, variable, made } of TOOLCHAIN_FOLDERS) {
    if (!made) continue;
    const moved = variable ? env[variable] : undefined;
    const base = moved && path.isAbsolute(moved) ? path.resolve(moved) : path.join(home, folder);
    if (!exists(base) || (made.unless && exists(path.join(base, made.unless)))) continue;
    out.push({ path: path.join(base, made.path), kind: made.kind });
  }
  const xdg = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? path.resolve(env.XDG_CONFIG_HOME) : path.join(home, '.config');
  if (exists(path.join(home, 'go'))) out.push({ path: path.join(xdg, 'go'), kind: 'folder' });
  return out;
}

/** The user whose folders of PATH outside the home count (default: this process's); none on Windows. */
export interface SearchUser { uid: number }
/** Null where processes have no uid (Windows). */
const currentUser = (): SearchUser | null => (typeof process.getuid === 'function' ? { uid: process.getuid() } : null);

/** Whether `user` owns `dir` or, while it is missing, the nearest folder above it that exists (they could make it there). */
function ownedBy(dir: string, user: SearchUser): boolean {
  for (let p = dir; ; p = path.dirname(p)) {
    const st = stat(p);
    if (st) return st.uid === user.uid;
    if (path.dirname(p) === p) return false;
  }
}

/**
 * The folders of the command search path (`PATH`) an agent could put a program in: those inside the
 * home (`~/.local/bin`, `~/.cargo/bin`, a version manager's shims) and those elsewhere that the user
 * owns (Homebrew's `/opt/homebrew/bin`, a `/usr/local/bin` handed to the user), existing or not (a
 * missing one counts where the user could make it: in the home, or below a folder of theirs; the
 * sandbox makes those of the home, as an installer's `export PATH="$HOME/.local/bin:$PATH"` names
 * one before it exists). A program put there
 * runs in place of another of its name, outside the sandbox, whenever the user, an editor or Alfred
 * runs that name: the acceptance checks run with this PATH, so a planted `npm` that exits 0 would
 * pass them for the agent that planted it. Left out: the home itself and any folder that holds the
 * workspace or lies in it (the agent's own work; not so when the workspace is the home itself, whose
 * folders stay the user's), relative entries (they name no fixed folder), and
 * for root the folders outside the home: root owns the whole system, which holding PATH alone would
 * not protect (docs/sandbox.md, Root).
 */
export function commandSearchFolders(searchPath: string | undefined, home: string, workspaceFolder?: string, user: SearchUser | null = currentUser()): string[] {
  const root = path.resolve(home);
  // A home at the file system's root (HOME=/ in some containers) would make every folder of PATH the home's.
  const homeCounts = path.dirname(root) !== root;
  const ws = workspaceOtherThanHome(root, workspaceFolder);
  const entries = (searchPath ?? '').split(path.delimiter).filter((entry) => path.isAbsolute(entry)).map((entry) => path.resolve(entry));
  const inside = (inner: string, outer: string) => relativeInside(outer, inner) !== undefined;
  const agents = (dir: string): boolean => (homeCounts && dir !== root && inside(dir, root))
    || (!inside(dir, root) && user !== null && user.uid !== 0 && path.dirname(dir) !== dir && ownedBy(dir, user));
  return [...new Set(entries)].filter((dir) => agents(dir) && !(ws !== undefined && (inside(ws, dir) || inside(dir, ws))));
}

/**
 * The installations among `folders` (command search folders) a test run's tools come from: a `bin`
 * folder with `node` beside `lib/node_modules` (nvm's, fnm's, n's, Homebrew's), or with `python3`
 * beside a `lib/python3.N` (conda's, Homebrew's). Volta's and asdf's PATH holds shims, not an
 * installation, so theirs are not found this way (their folders are held whole, TOOLCHAIN_FOLDERS).
 * The whole installation, not only its `bin`: npm's own code (`lib/node_modules/npm`, which
 * `npm test` runs), its global configuration (`etc/npmrc`, whose `script-shell` would run the checks'
 * scripts through a program of the agent's), Python's `site-packages` (a `.pth` line there runs at
 * every start of Python). Nothing else is written there but global installs.
 */
export function toolInstallations(folders: readonly string[]): string[] {
  return folders.flatMap((dir) => {
    if (path.basename(dir) !== 'bin') return [];
    const prefix = path.dirname(dir);
    const isNode = exists(path.join(dir, 'node')) && exists(path.join(prefix, 'lib', 'node_modules'));
    return isNode || isPython(dir, prefix) ? [prefix] : [];
  });
}

function isPython(bin: string, prefix: string): boolean {
  if (!exists(path.join(bin, 'python3'))) return false;
  try {
    return readdir(path.join(prefix, 'lib')).some((e) => /^python3\.\d+$/.test(e.name));
  } catch {
    return false;
  }
}

/**
 * Absolute paths of what runs later outside the sandbox: HOME_CODE_PATHS, HOME_CONFIG_PATHS, the
 * toolchains' folders, and with `search` (the environment whose PATH commands are looked up in, and
 * the workspace) what moved them there, what the shells' start-up files source, what the global git
 * configuration includes or runs (gitConfigSources.ts), the command search folders an agent could
 * write and the installations among them.
 */
export function runsLaterPaths(home: string = os.homedir(), search?: { env: NodeJS.ProcessEnv; workspaceFolder: string }): string[] {
  const fixed = fixedPaths(home);
  if (!search) return [...fixed];
  const env = wholeEnv(search.env);
  const key = JSON.stringify([runningCode(), home, search.workspaceFolder]);
  const compute = () => searchedPaths(home, { env: notedEnv(env), workspaceFolder: search.workspaceFolder }, fixed);
  const saved = () => ({ file: planFile(path.join(home, '.alfred'), workspaceId(search.workspaceFolder), 'later.json'), under: path.join(home, '.alfred'), valid: isPaths, key, env });
  return [...keptLater.get(`${key}\n${JSON.stringify(env)}`, compute, saved)];
}

/**
 * The gate asks on every tool call, for its protected paths, and on a shell call after the sandbox
 * plan that holds them asked: kept while nothing they were read from changed (fs/keptReads), in the
 * hook server's memory, and for a hook call without a server in a file beside the plan's (Alfred's
 * home, read-only inside the sandbox).
 */
const keptLater = new KeptValues<readonly string[]>(8);
const isPaths = (v: unknown): v is string[] => Array.isArray(v) && v.every((p) => typeof p === 'string');

function searchedPaths(home: string, search: { env: NodeJS.ProcessEnv; workspaceFolder: string }, fixed: readonly string[]): string[] {
  // A copy of Windows' environment keeps the variable's own spelling, `Path`.
  const folders = commandSearchFolders(search.env.PATH ?? search.env.Path, home, search.workspaceFolder);
  // A folder that holds the workspace (the user's `~/.config/nvim` opened to work on) is the agent's
  // work: held, it would make the whole workspace read-only.
  const ws = path.resolve(search.workspaceFolder);
  const notHoldingWorkspace = (p: string) => relativeInside(p, ws) === undefined;
  return [
    ...[...fixed, ...relocatedConfiguration(search.env, home)].filter(notHoldingWorkspace),
    ...startupSourced(home, search.workspaceFolder).map((s) => s.path),
    ...gitConfigSources(search.env, home, search.workspaceFolder).map((s) => s.path),
    ...folders, ...toolInstallations(folders),
  ];
}
