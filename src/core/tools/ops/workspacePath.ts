/**
 * Resolving the workspace-relative paths the model gives, and refusing those that leave the
 * workspace: lexically (`..`, an absolute path elsewhere) or through a symlink (an existing one,
 * one in a parent folder, or a dangling one a write would follow).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { realTarget as resolveTarget } from '../../base/fs/realTarget';
import { relativeInside } from '../../base/fs/relativeInside';
import { ToolError } from './errors';

/** Where `abs` really lands (see base/fs/realTarget.ts); a symlink loop is the model's error to hear about. */
export function realTarget(abs: string): string {
  const real = resolveTarget(abs);
  if (real === undefined) throw new ToolError(`Too many symbolic links while resolving ${abs}.`, 'invalid-input');
  return real;
}

export interface WorkspacePath {
  /** The absolute path, symlinks not followed. */
  abs: string;
  /** Where the path really lands, symlinks followed (for a path not yet created: where it would be). */
  real: string;
  /** Workspace-relative with `/`; '' for the workspace root. */
  rel: string;
}

/** `rel` for messages: the root reads as `.`. */
export function displayPath(rel: string): string {
  return rel === '' ? '.' : rel;
}

export function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/** The real path of a folder (or the folder itself if it cannot be resolved). */
export function realFolder(folder: string): string {
  try {
    return fs.realpathSync.native(path.resolve(folder));
  } catch {
    return path.resolve(folder);
  }
}

/**
 * Resolves a workspace-relative (or absolute, inside the workspace) path; throws a ToolError
 * when it, or what a symlink on its way points to, is outside the workspace.
 */
export function resolveWorkspacePath(workspaceFolder: string, p: string): WorkspacePath {
  const given = p.trim();
  if (given.includes('\0')) throw new ToolError('The path contains a NUL character.', 'invalid-input');
  const workspace = path.resolve(workspaceFolder);
  const realWorkspace = realFolder(workspace);
  const abs = path.resolve(workspace, given === '' ? '.' : given);
  // An absolute path may name the workspace through its real path (e.g. /private/var on macOS).
  const rel = relativeInside(workspace, abs) ?? relativeInside(realWorkspace, abs);
  const outside = `The path "${p}" is outside the workspace; give a path relative to the workspace folder.`;
  if (rel === undefined) throw new ToolError(outside, 'outside-workspace');
  const real = realTarget(abs);
  if (relativeInside(realWorkspace, real) === undefined) {
    throw new ToolError(`The path "${p}" leads outside the workspace through a symbolic link.`, 'outside-workspace');
  }
  return { abs, real, rel };
}

/** Whether a real (symlink-free) path is inside the workspace's real folder. */
export function isInsideWorkspace(realWorkspace: string, real: string): boolean {
  return relativeInside(realWorkspace, real) !== undefined;
}
