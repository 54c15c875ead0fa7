/**
 * The few git questions the harness asks (snapshot identity, handoff claims), through the `git`
 * executable. Every answer is undefined when git is missing or the folder is not in a work tree.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface GitRun {
  ok: boolean;
  stdout: Buffer;
  stderr: string;
}

// Status refreshes the index unless told not to; that write must not race the user's own git.
const GIT_ENV = { GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };

export function runGit(args: readonly string[], cwd: string): Promise<GitRun> {
  return new Promise((resolve) => {
    // Never run code the repository names (an fsmonitor, hooks): an agent may have written them.
    execFile('git', ['-c', 'core.quotepath=off', '-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', ...args], {
      cwd, encoding: 'buffer', maxBuffer: 512 * 1024 * 1024, windowsHide: true, env: { ...process.env, ...GIT_ENV },
    }, (err, stdout, stderr) => {
      resolve({ ok: !err, stdout: stdout ?? Buffer.alloc(0), stderr: String(stderr ?? '') });
    });
  });
}

export interface GitState {
  /** The repository's top folder. */
  root: string;
  /** The workspace folder relative to `root`, with `/` and a trailing `/`; '' at the root. */
  prefix: string;
  /** undefined in a repository without commits. */
  head?: string;
  /** undefined when HEAD is detached. */
  branch?: string;
}

/** The repository the folder belongs to, or undefined (no git, or not a work tree). */
export async function gitState(folder: string): Promise<GitState | undefined> {
  const top = await runGit(['rev-parse', '--show-toplevel'], folder);
  if (!top.ok) return undefined;
  const root = top.stdout.toString('utf8').trim();
  if (!root) return undefined;
  let real = folder;
  try {
    real = fs.realpathSync.native(folder);
  } catch {
    // keep it as given
  }
  let rootReal = root;
  try {
    rootReal = fs.realpathSync.native(root);
  } catch {
    // keep it as given
  }
  const rel = path.relative(rootReal, real).split(path.sep).join('/');
  const [head, branch] = await Promise.all([runGit(['rev-parse', '--verify', '-q', 'HEAD'], folder), runGit(['symbolic-ref', '--short', '-q', 'HEAD'], folder)]);
  const headText = head.ok ? head.stdout.toString('utf8').trim() : '';
  const branchText = branch.ok ? branch.stdout.toString('utf8').trim() : '';
  return { root, prefix: rel === '' ? '' : `${rel}/`, head: headText || undefined, branch: branchText || undefined };
}

/**
 * Files of the folder that differ from HEAD (modified, added, deleted, renamed, untracked and not
 * ignored), relative to the folder, sorted. undefined when git cannot tell.
 */
export async function changedFiles(folder: string, state: GitState): Promise<string[] | undefined> {
  const status = await runGit(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', '.'], folder);
  if (!status.ok) return undefined;
  const entries = status.stdout.toString('utf8').split('\0');
  const files = new Set<string>();
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as string;
    if (entry.length < 4) continue;
    const code = entry.slice(0, 2);
    // Porcelain paths are relative to the repository root, whatever the current folder.
    const p = entry.slice(3);
    const add = (q: string): void => {
      if (q !== '' && q.startsWith(state.prefix)) files.add(q.slice(state.prefix.length));
    };
    add(p);
    // A rename or copy is followed by its source path; a renamed-away source changed too.
    if (code.includes('R') || code.includes('C')) {
      i++;
      if (code.includes('R')) add(entries[i] ?? '');
    }
  }
  return [...files].sort();
}

/** Tracked and untracked-not-ignored files of the folder, relative to it (`git ls-files -co --exclude-standard`). */
export async function listedFiles(folder: string): Promise<string[] | undefined> {
  const ls = await runGit(['ls-files', '-z', '-c', '-o', '--exclude-standard', '--', '.'], folder);
  if (!ls.ok) return undefined;
  return [...new Set(ls.stdout.toString('utf8').split('\0').filter((p) => p !== ''))];
}
