/**
 * Which workspace files git would ignore: the root `.gitignore` and nested ones (each applying to
 * its own folder, deeper ones taking precedence), plus `.git/` and `node_modules/` always. The
 * parsed rules are cached per workspace folder; an edit of a `.gitignore` or a shell command
 * invalidates them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Folder names skipped at any depth, whatever the `.gitignore` files say. */
export const ALWAYS_SKIPPED: ReadonlySet<string> = new Set(['.git', 'node_modules']);

// Windows and macOS file systems ignore case by default, and so does git there.
const FOLD_CASE = process.platform === 'win32' || process.platform === 'darwin';

export interface IgnoreRules {
  /** Whether a workspace-relative path (with `/`) is ignored; `isDir` for folder-only patterns. */
  ignores(rel: string, isDir: boolean): boolean;
}

class WorkspaceIgnore implements IgnoreRules {
  /** Parsed `.gitignore` per folder (workspace-relative), null where there is none. */
  private readonly rulesByFolder = new Map<string, Ignore | null>();
  private readonly folderVerdicts = new Map<string, boolean>();

  constructor(private readonly root: string) {}

  ignores(rel: string, isDir: boolean): boolean {
    if (rel === '') return false;
    const parts = rel.split('/');
    if (parts.some((p) => ALWAYS_SKIPPED.has(p))) return true;
    // Git never looks inside an ignored folder, so nothing below it can be re-included.
    for (let i = 1; i < parts.length; i++) {
      if (this.folderIgnored(parts.slice(0, i))) return true;
    }
    return this.ownVerdict(parts, isDir);
  }

  private folderIgnored(parts: string[]): boolean {
    const key = parts.join('/');
    let verdict = this.folderVerdicts.get(key);
    if (verdict === undefined) {
      verdict = this.ownVerdict(parts, true);
      this.folderVerdicts.set(key, verdict);
    }
    return verdict;
  }

  /** The path's verdict from every `.gitignore` above it, the deepest one that matches winning. */
  private ownVerdict(parts: string[], isDir: boolean): boolean {
    let ignored = false;
    for (let i = 0; i < parts.length; i++) {
      const rules = this.rulesOf(parts.slice(0, i).join('/'));
      if (!rules) continue;
      const result = rules.test(parts.slice(i).join('/') + (isDir ? '/' : ''));
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }

  private rulesOf(folder: string): Ignore | null {
    let rules = this.rulesByFolder.get(folder);
    if (rules === undefined) {
      rules = null;
      try {
        const text = fs.readFileSync(path.join(this.root, folder, '.gitignore'), 'utf8');
        rules = ignore({ ignorecase: FOLD_CASE }).add(text);
      } catch {
        // no readable .gitignore in this folder
      }
      this.rulesByFolder.set(folder, rules);
    }
    return rules;
  }
}

const cache = new Map<string, WorkspaceIgnore>();

/** The (cached) ignore rules of a workspace folder. */
export function ignoreRulesFor(workspaceFolder: string): IgnoreRules {
  const root = path.resolve(workspaceFolder);
  let rules = cache.get(root);
  if (!rules) {
    rules = new WorkspaceIgnore(root);
    cache.set(root, rules);
  }
  return rules;
}

/** Forgets the cached rules of one workspace folder, or of all when none is given. */
export function invalidateIgnoreRules(workspaceFolder?: string): void {
  if (workspaceFolder === undefined) cache.clear();
  else cache.delete(path.resolve(workspaceFolder));
}
