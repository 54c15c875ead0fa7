/**
 * Which snapshot of the workspace the checks tested (ARCHITECTURE.md, The harness decides "done"): the commit
 * when the git tree is clean, else a SHA-256 digest over the sorted paths and contents of every
 * tracked and untracked-not-ignored file; without git, over every file that the workspace's
 * `.gitignore` files (at any depth, git's rules) do not ignore, and never inside IGNORED_FOLDERS.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { changedFiles, gitState, listedFiles } from './git';
import { sha256Hasher, sha256Hex } from '../../base/crypto/sha256';
import { useNodeCrypto } from '../../base/crypto/nodeCrypto';
import { relativeInside } from '../../base/fs/relativeInside';

/** Folders never hashed without git: tools' caches and dependencies, not the work. */
export const IGNORED_FOLDERS: readonly string[] = ['.git', 'node_modules'];
/** At most this many changed files are kept in a snapshot (the count is kept whole). */
export const MAX_CHANGED_LISTED = 500;
const HASH_CONCURRENCY = 16;

export interface Snapshot {
  /** `commit`: a clean git tree at HEAD; `digest`: the content hash. */
  kind: 'commit' | 'digest';
  /** The commit id, or `sha256:<hex>`. */
  id: string;
  git: boolean;
  head?: string;
  branch?: string;
  /** Files that differ from HEAD, workspace-relative (git only; at most MAX_CHANGED_LISTED). */
  changedFiles?: string[];
  changedCount?: number;
  /** Files hashed into the digest (0 for a commit). */
  files: number;
  takenAt: string;
}

/**
 * `own`: folders that are not the work (Alfred's own, the download caches), never hashed where they
 * lie in the workspace (the home opened as one): Alfred and the checks' tools write there as the checks run.
 */
export async function takeSnapshot(workspaceFolder: string, own: readonly string[] = []): Promise<Snapshot> {
  const takenAt = new Date().toISOString();
  const isWork = workOf(workspaceFolder, own);
  const git = await gitState(workspaceFolder);
  if (git) {
    const [allChanged, allListed] = await Promise.all([changedFiles(workspaceFolder, git), listedFiles(workspaceFolder)]);
    const changed = allChanged?.filter(isWork);
    const listed = allListed?.filter(isWork);
    if (changed && listed) {
      const base = { git: true, head: git.head, branch: git.branch, takenAt };
      const shown = { changedFiles: changed.slice(0, MAX_CHANGED_LISTED), changedCount: changed.length };
      if (changed.length === 0 && git.head) return { kind: 'commit', id: git.head, ...base, ...shown, files: 0 };
      return { kind: 'digest', id: await digestFiles(workspaceFolder, listed), ...base, ...shown, files: listed.length };
    }
  }
  const files = walkFiles(workspaceFolder, isWork);
  return { kind: 'digest', id: await digestFiles(workspaceFolder, files), git: false, files: files.length, takenAt };
}

/** Whether a workspace-relative path is outside every one of `own` (absolute folders; those outside the workspace count for nothing). */
function workOf(workspaceFolder: string, own: readonly string[]): (rel: string) => boolean {
  const real = (p: string): string => {
    try {
      return fs.realpathSync.native(p);
    } catch {
      return path.resolve(p);
    }
  };
  const ws = real(workspaceFolder);
  const inside = own.map((dir) => relativeInside(ws, real(dir))).filter((rel): rel is string => rel !== undefined && rel !== '');
  return (rel) => !inside.some((dir) => rel === dir || rel.startsWith(`${dir}/`));
}

/** Two snapshots are the same when their identities are. */
export function sameSnapshot(a: Snapshot, b: Snapshot): boolean {
  return a.kind === b.kind && a.id === b.id;
}

/** Short form for messages: 12 hex digits. */
export function shortId(s: Snapshot): string {
  return s.kind === 'commit' ? s.id.slice(0, 12) : `sha256:${s.id.slice(7, 19)}`;
}

/** A folder's `.gitignore` rules, matched against paths relative to that folder. */
interface IgnoreScope { base: string; rules: Ignore }

function gitignoreOf(dir: string, rel: string): IgnoreScope | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, '.gitignore'), 'utf8');
  } catch {
    return undefined;
  }
  return { base: rel, rules: ignore().add(text) };
}

function ignoredBy(scopes: readonly IgnoreScope[], rel: string, isDir: boolean): boolean {
  return scopes.some((s) => {
    const inner = s.base ? rel.slice(s.base.length + 1) : rel;
    return s.rules.ignores(isDir ? `${inner}/` : inner);
  });
}

/**
 * Every file under `folder` that git would not ignore (`.gitignore` files at any depth), relative with
 * `/`, never inside IGNORED_FOLDERS nor where `isWork` says no; symlinks are not followed.
 */
export function walkFiles(folder: string, isWork: (rel: string) => boolean = () => true): string[] {
  const out: string[] = [];
  const visit = (dir: string, rel: string, scopes: readonly IgnoreScope[]): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // removed meanwhile, or unreadable: its absence changes the digest anyway
    }
    const own = gitignoreOf(dir, rel);
    const inScope = own ? [...scopes, own] : scopes;
    for (const e of entries) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (!isWork(childRel)) continue;
      if (e.isDirectory()) {
        if (!IGNORED_FOLDERS.includes(e.name) && !ignoredBy(inScope, childRel, true)) visit(path.join(dir, e.name), childRel, inScope);
      } else if (!ignoredBy(inScope, childRel, false)) {
        out.push(childRel);
      }
    }
  };
  visit(folder, '', []);
  return out;
}

/**
 * SHA-256 over `path NUL marker NUL sha256(content) LF` for every path in byte order: a file's name
 * and its content both count, and a listed file that is gone (a deletion) counts as gone.
 */
export async function digestFiles(folder: string, files: readonly string[]): Promise<string> {
  // Whole files are hashed here: Node's native SHA-256 is many times faster on them than JavaScript.
  useNodeCrypto();
  const sorted = [...files].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const entries = new Array<string>(sorted.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < sorted.length) {
      const i = next++;
      entries[i] = await entryOf(folder, sorted[i] as string);
    }
  };
  await Promise.all(Array.from({ length: Math.min(HASH_CONCURRENCY, sorted.length) }, worker));
  const outer = sha256Hasher();
  sorted.forEach((p, i) => outer.update(`${p}\0${entries[i]}\n`));
  return `sha256:${outer.hex()}`;
}

async function entryOf(folder: string, rel: string): Promise<string> {
  const abs = path.join(folder, ...rel.split('/'));
  let st: fs.Stats;
  try {
    st = await fs.promises.lstat(abs);
  } catch {
    return 'missing';
  }
  if (st.isSymbolicLink()) {
    const target = await fs.promises.readlink(abs).catch(() => '');
    return `link\0${sha256Hex(target)}`;
  }
  if (st.isDirectory()) return 'folder'; // a git submodule: its own commit is its identity
  if (!st.isFile()) return 'special';
  return `file\0${await hashFile(abs)}`;
}

function hashFile(abs: string): Promise<string> {
  return new Promise((resolve) => {
    const h = sha256Hasher();
    const stream = fs.createReadStream(abs);
    stream.on('data', (chunk) => h.update(chunk));
    stream.on('end', () => resolve(h.hex()));
    // Unreadable (permissions, removed meanwhile): a distinct marker, so the digest still differs.
    stream.on('error', (err) => resolve(`unreadable:${(err as NodeJS.ErrnoException).code ?? 'error'}`));
  });
}
