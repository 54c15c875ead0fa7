/**
 * What a sandboxed command may not write (ARCHITECTURE.md, Protected paths hold against any command): the
 * workspace's governance files, checks.toml's `protect` globs, `*.code-workspace` files, Alfred's home
 * (state folder and launcher) and installation, the agents' and VS Code's user settings, and what
 * runs later outside the sandbox (the shells' start-up files and what they source, git's and npm's
 * user configuration and what git's includes or runs, the toolchains' code and configuration, the
 * editors' extensions and configuration, the folders of PATH an agent could write); and under
 * `sandbox = "strict"`, what it may write at all (writableRoots, ownCopies). The mounts need real, existing
 * paths: symlinks are resolved, and governance folders and configuration an agent could otherwise
 * create (git keeps no empty folder) are created empty first.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import picomatch from 'picomatch';
import { exists, lookup } from '../base/fs/keptReads';
import { relativeInside } from '../base/fs/relativeInside';
import { DOWNLOAD_CACHES } from '../protect/downloadCaches';
import { CODE_SERVER_MACHINE_FOLDER, commandSearchFolders, GOVERNANCE_WORKSPACE_PATHS, GOVERNED_AGENTS, HOME_CONFIG_PATHS, WORKSPACE_SETTINGS_GLOBS, governanceHomePaths, installationPaths, runsLaterPaths, startupSourced, toolchainConfigToMake } from '../protect/agents';
import { gitConfigSources } from '../protect/gitConfigSources';
import { repositoryCodePaths } from '../protect/repositoryCode';
import { byDepth, coveredBy, outermost } from './pathSet';
import { alfredHome, sandboxCopies, workspaceId } from '../base/state/paths';
import { RealPaths } from './realPaths';
import type { OwnCopy } from './wrap';
import { walkWorkspace } from './walk';

export interface MountOptions {
  workspaceFolder: string;
  /** checks.toml's `protect` globs, workspace-relative. */
  protectedGlobs: readonly string[];
  stateDir?: string;
  env?: NodeJS.ProcessEnv;
  home?: string;
  /** The folder Alfred runs from (protect/agents.ts installationPaths). */
  installation?: string;
  /** A role's `allow_write` paths, absolute (sandbox/index.ts resolves `~`); missing ones are left out. */
  allowWrite?: readonly string[];
  /** The temporary folders (default: the system's, `/tmp`, `/var/tmp`, `$TMPDIR`); for tests whose home lies in one. */
  tempFolders?: readonly string[];
}

/**
 * Where a process with `env` keeps temporary files, as Node's os.tmpdir() finds it on POSIX, but read
 * from `env`: the caller's, and noted as what the plan depends on (fs/keptReads' notedEnv).
 */
const tempFolderIn = (env: NodeJS.ProcessEnv): string => (env.TMPDIR || env.TMP || env.TEMP || '/tmp').replace(/(.)\/+$/, '$1');

/**
 * Alfred's run folder (the hook server's socket and port files), as its real path, made when missing:
 * the sandbox mounts an empty folder over it (wrap.ts, WrapInput.hookRun), and bwrap mounts only over
 * a folder that exists. Undefined when it cannot be made (Alfred's home read-only: inside a sandbox).
 */
export function hookRunFolder(opts: MountOptions): string | undefined {
  const run = path.join(alfredHome(opts.env ?? process.env), 'run');
  try {
    fs.mkdirSync(run, { recursive: true, mode: 0o700 });
  } catch {
    // as it is: read below
  }
  return exists(run) ? new RealPaths().of(run) : undefined;
}

/**
 * Where the network proxies of sandboxed commands keep their sockets, a folder each (netRun.ts), as
 * its real path, made when missing: every plan shows it empty (so no command finds another's proxy,
 * one whose role allows more), and a run binds its own folder back. Undefined when it cannot be made.
 */
export function netFolder(opts: MountOptions): string | undefined {
  const dir = path.join(alfredHome(opts.env ?? process.env), 'net');
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    // as it is: read below
  }
  return exists(dir) ? new RealPaths().of(dir) : undefined;
}

/**
 * What a command writes as it is, as absolute real paths, outermost only: the workspace, a temporary
 * folder that holds the home or Alfred's home (a copy of it would hide them), and the role's
 * `allow_write` paths that exist. The read-only paths within them stay read-only (wrap.ts). The other temporary folders and
 * the download caches it writes as copies of its own (ownCopies).
 */
export function writableRoots(opts: MountOptions): string[] {
  const real = new RealPaths();
  const allowed = (opts.allowWrite ?? []).map((p) => real.of(p)).filter((p): p is string => p !== undefined);
  const all = [real.of(opts.workspaceFolder) ?? path.resolve(opts.workspaceFolder), ...strictTemps(opts, real).kept, ...allowed];
  const roots = outermost(all);
  // Those within a home that a writable temporary folder holds: that home is read-only again (closedHomes), they are not.
  const closed = new Set(closedHomes(opts));
  const inner = all.filter((p) => !roots.includes(p) && coveredBy(p, closed) && !closed.has(p));
  return byDepth([...new Set([...roots, ...inner])]);
}

/**
 * The home and Alfred's home, as real paths, where a writable temporary folder holds them (a home in
 * /tmp, as CI machines and containers have): read-only again inside it, all but what is writable
 * within them (wrap.ts, WrapInput.closed). Elsewhere the home is read-only with the rest of the tree.
 */
export function closedHomes(opts: MountOptions): string[] {
  const real = new RealPaths();
  const env = opts.env ?? process.env;
  const home = opts.home ?? os.homedir();
  const kept = new Set(strictTemps(opts, real).kept);
  const homes = [home, alfredFolder(env, home)].map((p) => real.of(p) ?? path.resolve(p));
  return outermost(homes.filter((h) => coveredBy(h, kept) && !kept.has(h)));
}

/**
 * The temporary folders (but those writableRoots keeps) and the download
 * caches that exist (`~/.npm`, `~/.cache`, `~/.cargo/registry`…), each shown as a folder of the
 * workspace's own, `~/.alfred/sandbox-copies/<workspace id>/<real path>` (made here), kept from one
 * command to the next; shallowest first. What a program outside takes from them it runs without
 * checking again: cargo an extracted crate's build.rs, Gradle its wrapper, npx a package, Go its build
 * cache, tsx a file it compiled before (`/tmp/tsx-<uid>`). Written by a command in the real folder, it
 * would run outside the sandbox later; in the copy, only the command's own builds see it (the first
 * fetches again). The copies of the temporary folders also hide what servers outside keep there
 * (sockets of tmux, X11, an ssh agent). A folder whose copy cannot be made (Alfred's home read-only:
 * inside a sandbox) is left read-only.
 */
export function ownCopies(opts: MountOptions): OwnCopy[] {
  const real = new RealPaths();
  const home = opts.home ?? os.homedir();
  // Beside the plan's files (launcher.ts), which drops them with those once the workspace is unused.
  const own = sandboxCopies(path.join(home, '.alfred'), workspaceId(opts.workspaceFolder));
  const targets = [...strictTemps(opts, real).copied, ...DOWNLOAD_CACHES.map((rel) => real.of(path.join(home, rel)))];
  const copies = new Map<string, string>();
  for (const target of targets) {
    // A folder only: a copy mounted on a file (a stray `~/.yarn` file) would stop every command.
    if (target === undefined || copies.has(target) || !lookup(target)?.isDirectory()) continue;
    const source = path.join(own, target);
    ensureFolder(source, 0o700);
    if (exists(source)) copies.set(target, source);
  }
  return byDepth([...copies.keys()]).map((target) => ({ source: copies.get(target)!, target }));
}

/** The temporary folders that exist, as real paths, outermost: `kept` holds the home or Alfred's home. */
function strictTemps(opts: MountOptions, real: RealPaths): { kept: string[]; copied: string[] } {
  const env = opts.env ?? process.env;
  const home = opts.home ?? os.homedir();
  const temp = opts.tempFolders ?? [tempFolderIn(env), '/tmp', '/var/tmp'];
  const found = outermost(temp.filter((p) => path.isAbsolute(p)).map((p) => real.of(p)).filter((p): p is string => p !== undefined));
  const homes = [home, alfredFolder(env, home)].map((p) => real.of(p) ?? path.resolve(p));
  const holdsHome = (t: string) => homes.some((h) => coveredBy(h, new Set([t])));
  return { kept: found.filter(holdsHome), copied: found.filter((t) => !holdsHome(t)) };
}

/** Alfred's home for `home`: ALFRED_HOME, else `<home>/.alfred` (not the process's home: a plan may be for another). */
const alfredFolder = (env: NodeJS.ProcessEnv, home: string): string => (env.ALFRED_HOME ? alfredHome(env) : path.join(home, '.alfred'));

/**
 * Files one glob may list: each is a mount and two words of the terminal line. Past it, the glob's
 * static base folder is mounted whole; a glob without one (`**\/*.test.ts`) keeps its first files
 * (the shallowest) and leaves the rest to the gate's parsing.
 */
export const MAX_LISTED_FILES = 200;
// The gate matches globs the same way (protect/toolPaths.ts): dotfiles included, case folded where the file system does.
const FOLD_CASE = process.platform === 'win32' || process.platform === 'darwin';
const GLOB_OPTIONS = { dot: true, windows: false, nocase: FOLD_CASE };
/** A glob part that takes in everything under its base: the base folder itself is mounted. */
const WHOLE_FOLDER = new Set(['**', '**/*']);

/** Absolute real paths to mount read-only, outermost only, shallowest first. Creates the missing governance folders. */
export function readOnlyPaths(opts: MountOptions): string[] {
  const real = new RealPaths();
  const ws = real.of(opts.workspaceFolder) ?? path.resolve(opts.workspaceFolder);
  const env = opts.env ?? process.env;
  const home = opts.home ?? os.homedir();
  const found: string[] = [];

  for (const rel of GOVERNANCE_WORKSPACE_PATHS) {
    const abs = path.join(ws, rel);
    ensureFolder(abs);
    found.push(abs);
  }

  const listed = listedGlobs(ws, opts.protectedGlobs, found);
  const settings = WORKSPACE_SETTINGS_GLOBS.map(compiled);
  walkWorkspace(ws, ({ rel, abs, dir }) => {
    if (!dir && settings.some((test) => test(rel))) found.push(abs);
    for (const glob of listed) {
      if (glob.test(rel)) {
        glob.matches.push(abs);
        if (dir) return false; // the folder is mounted whole; nothing below needs listing
      }
    }
    return true;
  });
  for (const glob of listed) {
    if (glob.matches.length <= MAX_LISTED_FILES) found.push(...glob.matches);
    else found.push(...(glob.base ? [glob.base] : glob.matches.slice(0, MAX_LISTED_FILES)));
  }

  for (const abs of createdHomeFolders(env, home)) ensureFolder(abs, 0o700);
  // A folder of PATH in the home (agents.ts commandSearchFolders) is made when missing: a program
  // planted in it later would run in place of another of its name, outside the sandbox. One missing
  // elsewhere is left alone (docs/sandbox.md, What the sandbox does not hold).
  for (const abs of commandSearchFolders(env.PATH ?? env.Path, home, ws)) if (relativeInside(path.resolve(home), abs) !== undefined) ensureFolder(abs, 0o755);
  for (const rel of HOME_CONFIG_PATHS.folders) ensureFolder(path.join(home, rel), 0o700);
  for (const rel of HOME_CONFIG_PATHS.files) ensureEmptyFile(path.join(home, rel));
  for (const made of toolchainConfigToMake(env, home)) {
    if (made.kind === 'file') ensureEmptyFile(made.path);
    else ensureFolder(made.path, 0o700);
  }
  // What a start-up file sources and is missing (a file, or a loop's folder: Fedora's `~/.bashrc.d`),
  // and what the global git configuration includes or runs hooks from, made empty so that a command
  // cannot make it (sourcing or including an empty file does nothing, an empty hooks folder runs no
  // hook); a program either names is left alone: an empty one would fail there.
  for (const s of [...startupSourced(home, ws), ...gitConfigSources(env, home, ws)]) {
    if (s.kind === 'file') ensureEmptyFile(s.path);
    else if (s.kind === 'folder') ensureFolder(s.path, 0o700);
  }
  found.push(...governanceHomePaths(env, home), ...runsLaterPaths(home, { env, workspaceFolder: ws }));
  if (opts.installation) found.push(...installationPaths(real.of(opts.installation) ?? path.resolve(opts.installation), ws));
  if (opts.stateDir) found.push(opts.stateDir);
  // Git runs what the repository's configuration (core.fsmonitor, aliases) and hooks name, later and
  // outside the sandbox, when the user, VS Code or Alfred runs git: a command may not plant code there.
  found.push(...repositoryCodePaths(ws, home));

  // A device named as a configuration file (GIT_CONFIG_GLOBAL=/dev/null: no configuration) is no file
  // a command could plant in; mounted read-only, it would be one no process inside could open at all.
  const paths = found.map((p) => real.of(p)).filter((p): p is string => p !== undefined);
  return outermost(paths.filter((p) => !isDevice(p)));
}

function isDevice(p: string): boolean {
  const st = lookup(p);
  return st !== undefined && (st.isCharacterDevice() || st.isBlockDevice());
}

interface ListedGlob {
  /** Workspace-relative path → matches. */
  test: (rel: string) => boolean;
  /** The static base folder, absolute; undefined when the glob starts with a wildcard. */
  base: string | undefined;
  matches: string[];
}

/**
 * Sorts the `protect` globs: those that cover whole folders (or name one path) go straight into
 * `whole`; the others, like `**\/*.test.ts` or `src/**\/*.spec.js`, are matched on the walk, file by
 * file, so a folder is not made read-only for a few files in it.
 */
function listedGlobs(ws: string, globs: readonly string[], whole: string[]): ListedGlob[] {
  const listed: ListedGlob[] = [];
  for (const raw of globs) {
    // `tests/` and `./tests/**` mean `tests/**`, as for the gate; a negation protects nothing.
    const glob = raw.trim().replace(/^\.\//, '').replace(/\/$/, '/**');
    if (glob === '' || glob.startsWith('!')) continue;
    const scan = picomatch.scan(glob);
    const base = scan.base ? path.resolve(ws, scan.base) : undefined;
    if (!scan.isGlob || WHOLE_FOLDER.has(scan.glob)) {
      whole.push(base ?? ws);
      continue;
    }
    const match = compiled(glob);
    listed.push({ test: (rel) => match(rel), base, matches: [] });
  }
  return listed;
}

/** A hook server plans every call with the same few globs: each is compiled once. */
const matchers = new Map<string, (rel: string) => boolean>();
function compiled(glob: string): (rel: string) => boolean {
  let match = matchers.get(glob);
  if (!match) {
    match = picomatch(glob, GLOB_OPTIONS);
    if (matchers.size > 256) matchers.clear(); // globs come from checks.toml files: bounded anyway
    matchers.set(glob, match);
  }
  return match;
}

/**
 * The home folders the sandbox creates when missing, as it does the workspace's governance folders
 * (a missing folder cannot be mounted, and a command could create it with files of its own): Alfred's
 * home and `$ALFRED_HOME`, where its own files go; `~/.lean-ctx`, whose `roles` the user's roles are
 * read from (rules/roles/loader.ts); and the governed agents' own folders, whose files (`~/.claude/settings.json`,
 * `~/.copilot/hooks`) VS Code loads hooks from, and a hook runs outside any sandbox. Editors' user
 * folders are mounted only when they exist: the running editor's does, and a missing one belongs to
 * an editor not installed here. code-server's machine settings folder is the exception: it is missing
 * until a machine setting is written, so it is created where code-server is used.
 */
function createdHomeFolders(env: NodeJS.ProcessEnv, home: string): string[] {
  const agents = [...new Set(GOVERNED_AGENTS.flatMap((a) => a.homePaths))];
  // code-server's machine settings folder, missing until a machine setting is written, where code-server is used.
  const machine = path.join(home, CODE_SERVER_MACHINE_FOLDER);
  return [
    path.join(home, '.alfred'), ...(env.ALFRED_HOME ? [path.resolve(env.ALFRED_HOME)] : []), ...['.lean-ctx', ...agents].map((p) => path.join(home, p)),
    ...(exists(path.dirname(machine)) ? [machine] : []),
  ];
}

/** Creates a missing file empty, readable by its owner only (its parents too); an existing one is left as it is. */
function ensureEmptyFile(abs: string): void {
  if (!lookup(abs)) {
    try {
      fs.mkdirSync(path.dirname(abs), { recursive: true, mode: 0o700 });
      fs.writeFileSync(abs, '', { flag: 'wx', mode: 0o600 });
    } catch {
      // made meanwhile, or a read-only home: left out of the mounts below when missing, not fatal
    }
  }
}

/** Creates a missing folder (with its parents); an existing file or folder is left as it is. */
function ensureFolder(abs: string, mode?: number): void {
  if (!lookup(abs)) {
    try {
      fs.mkdirSync(abs, { recursive: true, ...(mode !== undefined ? { mode } : {}) });
    } catch {
      // a read-only or odd workspace: the path is left out of the mounts below, not fatal
    }
  }
}
