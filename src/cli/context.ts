import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { protectedGlobsReader } from '../core/completion/protectGlobs';
import { Harness } from '../core/harness';

/** The CLI ships inside the extension: dist/cli/alfred.mjs, with the built-in roles two folders up. */
export function builtinRolesDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '..', '..', 'roles'), path.resolve(here, '..', '..', '..', 'roles')];
  return candidates.find((c) => fs.existsSync(c)) ?? candidates[0]!;
}

type ParseJsonc = (text: string) => unknown;

/**
 * `alfred.role` from the workspace's .vscode/settings.json, so the CLI and the editor agree. The
 * JSONC parser is loaded only when that file exists: `alfred hook` runs on every tool call.
 */
async function workspaceRoleSetting(folder: string): Promise<() => string | undefined> {
  const file = path.join(folder, '.vscode', 'settings.json');
  if (!fs.existsSync(file)) return () => undefined;
  const parse: ParseJsonc = (await import('jsonc-parser')).parse;
  return () => {
    try {
      const settings = parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown> | undefined;
      const role = settings?.['alfred.role'];
      return typeof role === 'string' && role ? role : undefined;
    } catch {
      return undefined;
    }
  };
}

export async function openHarness(workspace: string): Promise<Harness> {
  const folder = path.resolve(workspace);
  if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) throw new Error(`--workspace ${workspace}: not a folder.`);
  return new Harness({
    workspaceFolder: folder,
    builtinRolesDir: builtinRolesDir(),
    trusted: true,
    roleSetting: await workspaceRoleSetting(folder),
    protectedGlobs: protectedGlobsReader(folder),
    version: alfredVersion(),
  });
}

/** The version in the extension's package.json, next to the built-in roles. */
export function alfredVersion(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(path.dirname(builtinRolesDir()), 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
