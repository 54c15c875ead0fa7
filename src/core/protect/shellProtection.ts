/**
 * Refusing agent shell commands that visibly write to protected paths (the state folder, the checks
 * file, role and hook files, checks.toml's `protect` globs). Best effort, like the parser it uses
 * (shellWrites.ts): it stops the plain attempts, not a determined program.
 */
import * as path from 'node:path';
import picomatch from 'picomatch';
import { relativeInside } from '../base/fs/relativeInside';
import { resolveWrite, shellWrites, type ShellWrite } from './shellWrites';
import { CHECKS_FILE, GOVERNANCE_PATHS, isProtected, type ProtectedHit, type ProtectionOptions } from './toolPaths';

export interface ShellHit {
  hit: ProtectedHit;
  write: ShellWrite;
}

/**
 * The first protected path `command` writes, run in `cwd` (default: the workspace folder). Writes
 * outside the workspace (a temporary file) are not this check's business, except the state folder
 * and the paths of `options.home` (Alfred's home and installation, the agents' user settings, what
 * runs later outside the sandbox).
 */
export function firstProtectedShellWrite(command: string, options: ProtectionOptions, cwd?: string): ShellHit | undefined {
  const workspace = path.resolve(options.workspaceFolder);
  const base = cwd === undefined ? workspace : path.resolve(workspace, cwd);
  for (const write of shellWrites(command)) {
    const abs = resolveWrite(write, base, options.home?.dir);
    const hit = isProtected(abs, options);
    if (hit && hit.kind !== 'outside-workspace') return { hit: { ...hit, path: write.target }, write };
    if (write.tree) {
      const inside = anchors(options).find((a) => a.abs === abs || isUnder(a.abs, abs));
      if (inside) return { hit: { ...inside.hit, path: write.target }, write };
    }
  }
  return undefined;
}

interface Anchor {
  abs: string;
  hit: ProtectedHit;
}

/** Where each protected thing begins: removing or moving a folder above it removes it too. */
function anchors(options: ProtectionOptions): Anchor[] {
  const ws = path.resolve(options.workspaceFolder);
  const list: Anchor[] = [];
  if (options.stateDir) list.push({ abs: path.resolve(options.stateDir), hit: { path: options.stateDir, kind: 'state-folder' } });
  list.push({ abs: path.join(ws, CHECKS_FILE), hit: { path: CHECKS_FILE, kind: 'checks-file', relative: CHECKS_FILE } });
  for (const g of GOVERNANCE_PATHS) list.push({ abs: path.join(ws, g), hit: { path: g, kind: 'governance', relative: g } });
  for (const g of options.home?.governancePaths ?? []) list.push({ abs: path.resolve(g), hit: { path: g, kind: 'governance' } });
  for (const g of options.home?.runsLaterPaths ?? []) list.push({ abs: path.resolve(g), hit: { path: g, kind: 'runs-later' } });
  for (const glob of options.globs) {
    if (glob.trim() === '') continue;
    const { base } = picomatch.scan(glob.replace(/^\.\//, ''));
    list.push({ abs: path.join(ws, base), hit: { path: glob, kind: 'glob', glob } });
  }
  return list;
}

function isUnder(child: string, parent: string): boolean {
  const rel = relativeInside(parent, child);
  return rel !== undefined && rel !== '';
}
