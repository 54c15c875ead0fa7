/**
 * Loads packs: the built-in `packs/` folder, then the workspace's `.alfred/packs/` (a workspace pack
 * of the same name replaces the built-in one, and says so). A broken pack is reported with its path
 * and key and left out; the others still load.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateManifest } from './schema';
import type { LoadedPacks, Pack, PackProblem, PackPrompt, PackSkill, PackSource } from './types';

export const WORKSPACE_PACKS_DIR = path.join('.alfred', 'packs');
/** A context this long crowds out the conversation; loaded, with a warning. */
export const CONTEXT_WARN_CHARS = 20_000;

export interface LoadPacksOptions {
  builtinDir: string;
  workspaceFolder?: string;
  /** Workspace Trust: an untrusted workspace's packs would inject a stranger's text into the prompt. */
  trusted?: boolean;
}

export function packFolders(opts: Pick<LoadPacksOptions, 'builtinDir' | 'workspaceFolder'>): Array<{ dir: string; source: PackSource }> {
  const out: Array<{ dir: string; source: PackSource }> = [{ dir: opts.builtinDir, source: 'builtin' }];
  if (opts.workspaceFolder) out.push({ dir: path.join(opts.workspaceFolder, WORKSPACE_PACKS_DIR), source: 'workspace' });
  return out;
}

export function loadPacks(opts: LoadPacksOptions): LoadedPacks {
  const found = new Map<string, Pack>();
  const problems: PackProblem[] = [];
  for (const { dir, source } of packFolders(opts)) {
    const names = subfolders(dir);
    if (source === 'workspace' && opts.trusted === false) {
      if (names.length) problems.push({ path: dir, key: '', message: 'workspace packs are ignored in Restricted Mode (trust the workspace to use them)', severity: 'warning' });
      continue;
    }
    for (const name of names) {
      const pack = loadPack(path.join(dir, name), source, problems);
      if (!pack) continue;
      const builtin = found.get(pack.name);
      if (builtin) problems.push({ path: pack.dir, key: 'name', pack: pack.name, severity: 'warning', message: `replaces the built-in pack "${pack.name}" (${builtin.dir})` });
      found.set(pack.name, pack);
    }
  }
  const sorted = new Map([...found.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { packs: sorted, problems };
}

function subfolders(dir: string): string[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** One pack folder; undefined (with problems) when it cannot be used. */
export function loadPack(dir: string, source: PackSource, problems: PackProblem[]): Pack | undefined {
  const folderName = path.basename(dir);
  const manifestFile = path.join(dir, 'domain.json');
  const text = readText(manifestFile);
  if (text === undefined) {
    problems.push({ path: manifestFile, key: '', pack: folderName, severity: 'error', message: 'missing: every pack needs a domain.json manifest' });
    return undefined;
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    problems.push({ path: manifestFile, key: '', pack: folderName, severity: 'error', message: `not valid JSON: ${(err as Error).message}` });
    return undefined;
  }
  const parsed = validateManifest(doc, manifestFile, folderName);
  problems.push(...parsed.problems);
  const m = parsed.manifest;
  if (!m) return undefined;

  const contextFile = path.join(dir, 'context.md');
  const context = readText(contextFile);
  if (context === undefined || !context.trim()) {
    problems.push({ path: contextFile, key: '', pack: m.name, severity: 'error', message: context === undefined ? 'missing: the pack\'s context.md is what goes into the prompt' : 'is empty' });
    return undefined;
  }
  if (context.length > CONTEXT_WARN_CHARS) {
    problems.push({ path: contextFile, key: '', pack: m.name, severity: 'warning', message: `is ${context.length} characters long; it is injected whole into every prompt the pack wins` });
  }
  const triggers = [...new Set(Object.values(m.triggers).flat())];
  return {
    name: m.name,
    description: m.description,
    triggers,
    triggersByLanguage: m.triggers,
    hints: m.hints ?? [],
    ...(m.recommendedRole ? { recommendedRole: m.recommendedRole } : {}),
    context,
    skills: loadSkills(dir, m.name, problems),
    prompts: loadPrompts(dir),
    dir,
    source,
  };
}

/** `skills/NAME/SKILL.md`, with `name` and `description` in its front matter. */
function loadSkills(dir: string, pack: string, problems: PackProblem[]): PackSkill[] {
  const skillsDir = path.join(dir, 'skills');
  const out: PackSkill[] = [];
  for (const name of subfolders(skillsDir)) {
    const file = path.join(skillsDir, name, 'SKILL.md');
    const text = readText(file);
    if (text === undefined) {
      problems.push({ path: file, key: '', pack, severity: 'warning', message: 'missing: a skill folder needs a SKILL.md' });
      continue;
    }
    const front = frontMatter(text);
    if (!front.description) problems.push({ path: file, key: 'description', pack, severity: 'warning', message: 'the front matter has no description' });
    if (front.name && front.name !== name) problems.push({ path: file, key: 'name', pack, severity: 'warning', message: `"${front.name}" differs from the folder name "${name}"` });
    out.push({ name, description: front.description ?? '', path: file });
  }
  return out;
}

function loadPrompts(dir: string): PackPrompt[] {
  const promptsDir = path.join(dir, 'prompts');
  try {
    return fs.readdirSync(promptsDir).filter((f) => f.endsWith('.md')).sort()
      .map((f) => ({ name: f.slice(0, -3), path: path.join(promptsDir, f) }));
  } catch {
    return [];
  }
}

/** `---\nkey: value\n---` at the top of a Markdown file; only one-line string values are read. */
export function frontMatter(text: string): Record<string, string> {
  const m = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (!m) return {};
  const out: Record<string, string> = {};
  for (const line of m[1]!.split(/\r?\n/)) {
    const kv = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(line);
    if (kv) out[kv[1]!] = kv[2]!.trim().replace(/^(['"])(.*)\1$/, '$2');
  }
  return out;
}
