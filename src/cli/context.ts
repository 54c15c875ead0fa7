import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseJsonc } from 'jsonc-parser';
import { Harness } from '../core/harness';

/** The CLI ships inside the extension: dist/cli/alfred.mjs, with the built-in roles two folders up. */
export function builtinRolesDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '..', '..', 'roles'), path.resolve(here, '..', '..', '..', 'roles')];
  return candidates.find((c) => fs.existsSync(c)) ?? candidates[0]!;
}

/** `alfred.role` from the workspace's .vscode/settings.json, so the CLI and the editor agree. */
function workspaceRoleSetting(folder: string): string | undefined {
  try {
    const settings = parseJsonc(fs.readFileSync(path.join(folder, '.vscode', 'settings.json'), 'utf8')) as Record<string, unknown> | undefined;
    const role = settings?.['alfred.role'];
    return typeof role === 'string' && role ? role : undefined;
  } catch {
    return undefined;
  }
}

export function openHarness(workspace: string): Harness {
  const folder = path.resolve(workspace);
  if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) throw new Error(`--workspace ${workspace}: not a folder.`);
  return new Harness({
    workspaceFolder: folder,
    builtinRolesDir: builtinRolesDir(),
    trusted: true,
    roleSetting: () => workspaceRoleSetting(folder),
  });
}
