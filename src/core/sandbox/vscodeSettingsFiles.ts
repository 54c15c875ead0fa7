/**
 * Whether VS Code's own sandbox holds Alfred's rules in every editor that could run a hook here: a hook
 * cannot tell which editor (stable, Insiders, VSCodium, code-server) or which profile runs it, so each
 * user settings file and each profile's that exists must hold, with the workspace's settings over it.
 * The files are read again only when their size or time changes (a hook server answers many calls).
 * Every read goes through fs/keptReads, so an answer kept between calls knows what it depended on.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { applyEdits, modify, parse } from 'jsonc-parser';
import { isObject } from '../base/isObject';
import { atomicWrite } from '../base/fs/atomicWrite';
import { KeptValues, readdir, readText, stat } from '../base/fs/keptReads';
import { vscodeUserDirs } from '../rules/mcp/locations';
import { alfredHome } from '../base/state/paths';
import { effectiveSettings, VSCODE_SANDBOX, vscodeSandboxHolds, vscodeSandboxOn, type VscodeSandboxInput, type VscodeSandboxVerdict } from './vscodeSandbox';

interface Read { stamp: string; doc: Record<string, unknown> | undefined }
const cache = new Map<string, Read>();

/** The file's settings, undefined when it does not exist; a file that does not parse counts as empty (its sandbox off). */
export function settingsFileOf(file: string): Record<string, unknown> | undefined {
  const st = stat(file);
  if (!st) {
    cache.delete(file);
    return undefined;
  }
  const stamp = `${st.size}:${st.mtimeMs}:${st.ino}`;
  const hit = cache.get(file);
  if (hit?.stamp === stamp) return hit.doc;
  let doc: Record<string, unknown> = {};
  try {
    const parsed: unknown = parse(readText(file), [], { allowTrailingComma: true });
    if (isObject(parsed)) doc = parsed;
  } catch {
    doc = {};
  }
  cache.set(file, { stamp, doc });
  return doc;
}

/**
 * The user folders windows of Alfred's extension have reported (rememberVscodeUserDir): an editor
 * started with its own `--user-data-dir` keeps its settings where no default location looks.
 */
const rememberedFile = (env: NodeJS.ProcessEnv): string => path.join(alfredHome(env), 'vscode-user-dirs.json');

function rememberedDirs(env: NodeJS.ProcessEnv): string[] {
  try {
    const list: unknown = JSON.parse(readText(rememberedFile(env)));
    return Array.isArray(list) ? list.filter((d): d is string => typeof d === 'string' && path.isAbsolute(d)) : [];
  } catch {
    return [];
  }
}

/** Notes the running editor's user folder (its extension calls this at start), so the hooks check its settings too. */
export function rememberVscodeUserDir(dir: string, env: NodeJS.ProcessEnv = process.env): void {
  const dirs = rememberedDirs(env);
  const abs = path.resolve(dir);
  if (dirs.includes(abs)) return;
  mkdirSync(path.dirname(rememberedFile(env)), { recursive: true, mode: 0o700 });
  atomicWrite(rememberedFile(env), `${JSON.stringify([...dirs, abs], null, 2)}\n`);
}

/** The profiles' settings of a user folder (`profiles/<id>/settings.json`), listed without reading VS Code's state. */
function profileSettings(userDir: string): string[] {
  try {
    return readdir(path.join(userDir, 'profiles')).filter((d) => d.isDirectory()).map((d) => path.join(userDir, 'profiles', d.name, 'settings.json'));
  } catch {
    return [];
  }
}

/** Every user settings file of VS Code's editors here, and each profile's (whether or not they exist). */
export function vscodeUserSettingsFiles(env: NodeJS.ProcessEnv, home: string, platform: NodeJS.Platform = process.platform): string[] {
  const dirs = [...new Set([...vscodeUserDirs(env, platform, home), ...rememberedDirs(env)].map((d) => path.resolve(d)))];
  return dirs.flatMap((d) => [path.join(d, 'settings.json'), ...profileSettings(d)]);
}

export type VscodeSandboxReport = VscodeSandboxVerdict & { file?: string };

/** Holds when every existing user settings file holds; else one that falls short, named (one where the sandbox is on first). */
export function vscodeSandboxEverywhere(files: readonly string[], input: VscodeSandboxInput, platform: NodeJS.Platform = process.platform): VscodeSandboxReport {
  const workspace = settingsFileOf(path.join(input.workspaceFolder, '.vscode', 'settings.json')) ?? {};
  let seen = 0;
  const short: VscodeSandboxReport[] = [];
  for (const file of files) {
    const user = settingsFileOf(file);
    if (user === undefined) continue;
    seen++;
    const verdict = vscodeSandboxHolds(effectiveSettings(user, workspace), input, platform);
    if (!verdict.holds) short.push({ ...verdict, file });
  }
  if (!seen) return { holds: false, off: true, missing: ['no VS Code user settings here'] };
  // Where it is on somewhere, what it lacks there says more than another editor's being off.
  return short.find((v) => !v.holds && !v.off) ?? short[0] ?? { holds: true };
}

/**
 * Whether VS Code's sandbox is on in every existing user settings file (the workspace's laid over
 * each): read before Alfred plans anything, so a hook call where it is off pays for no plan.
 */
export function vscodeSandboxOnEverywhere(files: readonly string[], workspaceFolder: string): boolean {
  const workspace = settingsFileOf(path.join(workspaceFolder, '.vscode', 'settings.json')) ?? {};
  const users = files.map(settingsFileOf).filter((u): u is Record<string, unknown> => u !== undefined);
  return users.length > 0 && users.every((user) => vscodeSandboxOn(effectiveSettings(user, workspace)[VSCODE_SANDBOX.enabled]));
}

/**
 * vscodeSandboxOnEverywhere for every editor's user settings under `env` and `home`, asked on each
 * Copilot terminal call: kept while no file or folder it read changed (fs/keptReads), so a hook
 * server checks a few stats instead of listing each editor's profiles and reading its settings.
 */
const onHere = new KeptValues<boolean>(4);

export function vscodeSandboxOnHere(env: NodeJS.ProcessEnv, home: string, workspaceFolder: string): boolean {
  return onHere.get(JSON.stringify([home, workspaceFolder, env]), () => vscodeSandboxOnEverywhere(vscodeUserSettingsFiles(env, home), workspaceFolder));
}

/** A settings file's text with `values` set (comments and every other setting kept), for the write pipeline's diff. */
export function settingsTextWith(text: string | undefined, values: Readonly<Record<string, unknown>>): string {
  let out = text && text.trim() ? text : '{}\n';
  for (const [key, value] of Object.entries(values)) {
    out = applyEdits(out, modify(out, [key], value, { formattingOptions: { tabSize: 4, insertSpaces: true, eol: '\n' } }));
  }
  return out;
}
