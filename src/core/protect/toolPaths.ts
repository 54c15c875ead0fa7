/**
 * Which files a tool call touches, and whether any of them is protected (ARCHITECTURE.md, Governance
 * files change only with the user: protected paths and the checks file are out of the agent's write scope).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import picomatch from 'picomatch';
import { relativeInside } from '../base/fs/relativeInside';
import { realTarget } from '../base/fs/realTarget';
import { GIT_ENTRY, GOVERNANCE_WORKSPACE_PATHS, REPOSITORY_CODE_PATHS, WORKSPACE_SETTINGS_GLOBS } from './agents';

const PATH_KEYS = ['filePath', 'file_path', 'path', 'dirPath', 'notebook_path'] as const;
/**
 * Where an apply_patch call carries its patch text: Copilot's tools under `input` or `patch`, Codex
 * (0.169) under `command` (integrations/hooks/input.ts reads each agent's shape; these hold whoever sent it).
 */
const PATCH_KEYS = ['input', 'patch', 'command'] as const;
/** A patch's file lines. Codex reads them trimmed, so an indented line or a CR line end counts too. */
const PATCH_LINE = /^[ \t]*\*\*\*[ \t]*(?:Add File|Update File|Delete File|Move to)[ \t]*:[ \t]*(.+?)[ \t\r]*$/gm;
export const CHECKS_FILE = '.alfred/checks.toml';
/** The files that set an agent's own rules (protect/agents.ts): an agent editing them could loosen its rules. */
export const GOVERNANCE_PATHS: readonly string[] = GOVERNANCE_WORKSPACE_PATHS;

/** The files a patch text names (`*** Add File:`, `*** Update File:`, `*** Delete File:`, `*** Move to:` lines). */
export function patchPaths(text: string): string[] {
  return [...text.matchAll(PATCH_LINE)].map((m) => m[1] as string);
}

/**
 * Every file path a tool input names, in order, without duplicates. `value` is the input already
 * parsed (rules/policy/toolCall.ts); a string is a bare patch text.
 */
export function toolPaths(value: unknown): string[] {
  const found: string[] = [];
  const add = (p: unknown): void => {
    if (typeof p === 'string' && p.trim() !== '' && !found.includes(p)) found.push(p);
  };
  if (typeof value === 'string') {
    patchPaths(value).forEach(add);
    return found;
  }
  if (value === null || typeof value !== 'object') return found;
  const args = value as Record<string, unknown>;
  for (const key of PATH_KEYS) add(args[key]);
  if (Array.isArray(args.filePaths)) args.filePaths.forEach(add);
  if (Array.isArray(args.replacements)) {
    for (const r of args.replacements) if (r && typeof r === 'object') add((r as Record<string, unknown>).filePath);
  }
  for (const key of PATCH_KEYS) if (typeof args[key] === 'string') patchPaths(args[key] as string).forEach(add);
  return found;
}

export interface ProtectionOptions {
  globs: readonly string[];
  workspaceFolder: string;
  /** Alfred's state folder: always protected, wherever it is. */
  stateDir?: string;
  /**
   * The home folder `~` and `$HOME` stand for in a shell command, and absolute paths no tool may
   * write, wherever they are (protect/agents.ts): governance paths (Alfred's home and its own
   * installation, the agents' and editors' user folders) and what runs later outside the sandbox
   * (the shells' start-up files, git's user configuration, the editors' extensions).
   */
  home?: { dir: string; governancePaths: readonly string[]; runsLaterPaths: readonly string[] };
}

export interface ProtectedHit {
  /** The path as the tool gave it. */
  path: string;
  kind: 'outside-workspace' | 'state-folder' | 'checks-file' | 'governance' | 'runs-later' | 'glob';
  /** The glob that matched (kind `glob`). */
  glob?: string;
  /** The workspace-relative path (with `/`), when inside the workspace. */
  relative?: string;
  /** For a hard link: the protected name of the same file. */
  linkedTo?: string;
}

// Windows and macOS file systems ignore case by default, so `Tests/x` is `tests/x` there.
const FOLD_CASE = process.platform === 'win32' || process.platform === 'darwin';

type GlobTest = { glob: string; test: (p: string) => boolean };
// Keyed by content: callers may build a fresh array per call from the same checks file.
const globCache = new Map<string, GlobTest[]>();

function compileGlobs(globs: readonly string[]): GlobTest[] {
  const key = globs.join('\0');
  let compiled = globCache.get(key);
  if (!compiled) {
    const options = { dot: true, windows: false, nocase: FOLD_CASE };
    compiled = globs.filter((g) => g.trim() !== '').map((glob) => {
      // `tests/` or `./tests/**` mean the same as `tests/**` to a person writing the list.
      const clean = glob.replace(/^\.\//, '').replace(/\/$/, '/**');
      return { glob, test: picomatch(clean, options) };
    });
    if (globCache.size >= 64) globCache.clear();
    globCache.set(key, compiled);
  }
  return compiled;
}

function toAbsolute(p: string, base: string): string {
  if (p.startsWith('file:')) {
    try {
      return fileURLToPath(p);
    } catch {
      // not a valid file URL: treat it as a name
    }
  }
  return path.resolve(base, p);
}

function realpath(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return p;
  }
}

function same(a: string, b: string): boolean {
  return FOLD_CASE ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** A path and each folder above it (`a/b/c`, `a/b`, `a`), so `tests` protects `tests/x.ts`. */
function withAncestors(rel: string): string[] {
  const parts = rel.split('/');
  return parts.map((_, i) => parts.slice(0, parts.length - i).join('/'));
}

/**
 * Why a path is protected, or undefined when an agent may write it. A path that leaves the
 * workspace, lexically (`..`) or through a symlink, is protected, and so is a hard link to a
 * protected file (same device and inode): writing it writes the protected file.
 */
export function isProtected(p: string, options: ProtectionOptions): ProtectedHit | undefined {
  const targets = targetOf(p, options);
  const hit = protectedByName(p, targets, options);
  if (hit && hit.kind !== 'outside-workspace') return hit;
  const held = heldByPath(p, targets, options, hit !== undefined);
  if (held) return held;
  if (hit) return hit;
  const linked = hardLinkedProtected(targets.abs, options);
  return linked ? { ...linked, path: p, linkedTo: linked.path } : undefined;
}

/** A path as named (absolute) and where it really lands. */
interface Target {
  abs: string;
  real: string;
}

/** Resolved once for all the checks of one path: a symlink loop would fail the write anyway. */
function targetOf(p: string, options: ProtectionOptions): Target {
  const abs = toAbsolute(p, path.resolve(options.workspaceFolder));
  return { abs, real: realTarget(abs) ?? abs };
}

function protectedByName(p: string, { abs, real }: Target, options: ProtectionOptions): ProtectedHit | undefined {
  const workspace = path.resolve(options.workspaceFolder);
  const realWorkspace = realpath(workspace);

  if (options.stateDir) {
    const state = path.resolve(options.stateDir);
    const realState = realpath(state);
    const inState = [abs, real].some((t) => relativeInside(state, t) !== undefined || relativeInside(realState, t) !== undefined);
    if (inState) return { path: p, kind: 'state-folder' };
  }

  const lexical = relativeInside(workspace, abs) ?? relativeInside(realWorkspace, abs);
  const resolved = relativeInside(realWorkspace, real);
  if (lexical === undefined || resolved === undefined) return { path: p, kind: 'outside-workspace' };

  const candidates = lexical === resolved ? [lexical] : [lexical, resolved];
  for (const rel of candidates) {
    if (same(rel, CHECKS_FILE)) return { path: p, kind: 'checks-file', relative: rel };
    const governed = same(rel, GIT_ENTRY) || withAncestors(rel).some((c) => GOVERNANCE_PATHS.some((g) => same(c, g)) || REPOSITORY_CODE_PATHS.some((g) => same(c, g)))
      || compileGlobs(WORKSPACE_SETTINGS_GLOBS).some((g) => g.test(rel));
    if (governed) return { path: p, kind: 'governance', relative: rel };
  }
  const globs = compileGlobs(options.globs);
  for (const rel of candidates) {
    if (rel === '') continue;
    for (const candidate of withAncestors(rel)) {
      const hit = globs.find((g) => g.test(candidate));
      if (hit) return { path: p, kind: 'glob', glob: hit.glob, relative: rel };
    }
  }
  return undefined;
}

/**
 * A hit when `p` (as named, or where its symlinks lead) is one of options.home's absolute paths or
 * inside one. Where those paths themselves lead through symlinks (a dotfiles folder) is looked up
 * only for a target outside the workspace: an edit of a workspace file, the common call, costs no
 * system call per path.
 */
function heldByPath(p: string, { abs, real }: Target, options: ProtectionOptions, outside: boolean): ProtectedHit | undefined {
  const home = options.home;
  if (!home) return undefined;
  const targets = [abs, real];
  const holds = (paths: readonly string[]) => paths.some((g) => {
    const root = path.resolve(g);
    return (outside ? [root, realpath(root)] : [root]).some((r) => targets.some((t) => relativeInside(r, t) !== undefined));
  });
  if (holds(home.governancePaths)) return { path: p, kind: 'governance' };
  if (holds(home.runsLaterPaths)) return { path: p, kind: 'runs-later' };
  return undefined;
}

/** Files looked at when searching the other names of a hard-linked file; past this, it counts as protected. */
const MAX_LINK_SEARCH = 50_000;
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

/**
 * When `abs` is a file with more than one name, the protected hit of another name of it: searched in
 * the workspace and in Alfred's home (which holds the state folder and the launcher). Only files with
 * several links pay for the search, and a search too large to finish counts as protected.
 */
function hardLinkedProtected(abs: string, options: ProtectionOptions): ProtectedHit | undefined {
  let st: fs.Stats;
  try {
    st = fs.statSync(abs);
  } catch {
    return undefined;
  }
  if (!st.isFile() || st.nlink < 2) return undefined;
  const roots = [path.resolve(options.workspaceFolder)];
  if (options.stateDir) roots.push(path.dirname(path.dirname(path.resolve(options.stateDir))));
  let seen = 0;
  for (const root of roots) {
    const stack = [root];
    while (stack.length > 0) {
      const dir = stack.pop() as string;
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        if (++seen > MAX_LINK_SEARCH) return { path: abs, kind: 'governance' };
        const child = path.join(dir, e.name);
        if (e.isDirectory()) {
          if (!SKIPPED_FOLDERS.has(e.name)) stack.push(child);
          continue;
        }
        if (!e.isFile() || child === abs) continue;
        let other: fs.Stats;
        try {
          other = fs.statSync(child);
        } catch {
          continue;
        }
        if (other.ino !== st.ino || other.dev !== st.dev) continue;
        const hit = protectedByName(child, targetOf(child, options), options);
        if (hit) return { ...hit, path: child };
      }
    }
  }
  return undefined;
}

/** The first protected path among those a tool call touches (its `paths`). */
export function firstProtected(paths: readonly string[], options: ProtectionOptions): ProtectedHit | undefined {
  for (const p of paths) {
    const hit = isProtected(p, options);
    if (hit) return hit;
  }
  return undefined;
}
