/**
 * Each trial works in its own clean git worktree, detached at the task's start commit, and the
 * worktree is removed after it; one left by a crashed run is removed when the next run starts, so
 * no trial ever starts in another's leftovers.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runGit } from '../workflow/completion/git';

/** The full sha of `ref` (a commit, a branch, a checkpoint ref) in the repository at `repo`. */
export async function resolveStart(repo: string, ref: string): Promise<string> {
  const r = await runGit(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], repo);
  const sha = r.stdout.toString('utf8').trim();
  if (!r.ok || !/^[0-9a-f]{40,64}$/.test(sha)) throw new Error(`start "${ref}" is not a commit of ${repo}`);
  return sha;
}

/** A new worktree at `dir`, detached at `sha`; whatever was at `dir` before is removed first. */
export async function addWorktree(repo: string, dir: string, sha: string): Promise<void> {
  await removeWorktree(repo, dir);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const r = await runGit(['worktree', 'add', '--detach', '--force', dir, sha], repo);
  if (!r.ok) throw new Error(`git worktree add ${dir} ${sha.slice(0, 12)} failed: ${r.stderr.trim()}`);
}

/** Removes the worktree at `dir` (changes and all) and git's record of it; nothing there is fine. */
export async function removeWorktree(repo: string, dir: string): Promise<void> {
  if (fs.existsSync(dir)) await runGit(['worktree', 'remove', '--force', '--force', dir], repo);
  fs.rmSync(dir, { recursive: true, force: true });
  await runGit(['worktree', 'prune'], repo);
}

/** Removes every worktree left under `root` (a crashed run's); returns the folders removed. */
export async function removeLeftovers(repo: string, root: string): Promise<string[]> {
  let names: string[];
  try {
    names = fs.readdirSync(root);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const dir = path.join(root, name);
    await removeWorktree(repo, dir);
    removed.push(dir);
  }
  return removed;
}
