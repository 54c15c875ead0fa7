import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Harness } from '../core/harness/harness';
import { openWorkspaceHarness } from '../core/integrations/hooks/openWorkspace';

/** The CLI ships inside the extension: dist/cli/alfred.mjs, with the built-in roles two folders up. */
export function builtinRolesDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '..', '..', 'roles'), path.resolve(here, '..', '..', '..', 'roles')];
  return candidates.find((c) => fs.existsSync(c)) ?? candidates[0]!;
}

/** A workspace's harness as the command line opens it (src/core/integrations/hooks/openWorkspace.ts). */
export function openHarness(workspace: string): Promise<Harness> {
  return openWorkspaceHarness(workspace, { builtinRolesDir: builtinRolesDir(), version: alfredVersion() });
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
