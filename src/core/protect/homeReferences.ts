/**
 * What the user's configuration files (the shells' start-up files, git's) run or read from elsewhere
 * in the home, and the two rules both readers follow: a file is read only when it is a small regular
 * file, and a path counts when it lies in the home and is not the agent's own work (in the workspace,
 * or holding it).
 */
import * as path from 'node:path';
import { readText, stat } from '../base/fs/keptReads';
import { relativeInside } from '../base/fs/relativeInside';

/**
 * A path a configuration file runs or reads: a file (sourced, included), a folder (whose every file
 * is sourced, or hooks run from), a program (evaluated, or named by a command setting).
 */
export interface Sourced {
  path: string;
  kind: 'file' | 'folder' | 'program';
}

/** A configuration file is a page of lines; a larger one is not read. */
const MAX_BYTES = 256 * 1024;

/** The text of `file` (noted by fs/keptReads), or undefined when it is missing, not a file, too large or unreadable. */
export function readConfigFile(file: string): string | undefined {
  const st = stat(file);
  if (!st?.isFile() || st.size > MAX_BYTES) return undefined;
  try {
    return readText(file);
  } catch {
    return undefined;
  }
}

/**
 * Whether a path counts: inside `home` (not the home itself), neither in the workspace nor holding
 * it. A workspace that is the home itself makes nothing the agent's work: the home's own start-up
 * code stays the user's, as the fixed lists do.
 */
export function inHomeNotWorkspace(home: string, workspaceFolder: string | undefined): (p: string) => boolean {
  const root = path.resolve(home);
  const ws = workspaceOtherThanHome(root, workspaceFolder);
  return (p) => p !== root && relativeInside(root, p) !== undefined
    && !(ws !== undefined && (relativeInside(ws, p) !== undefined || relativeInside(p, ws) !== undefined));
}

/** The workspace, resolved; undefined when there is none or it is the home itself (see inHomeNotWorkspace). */
export function workspaceOtherThanHome(home: string, workspaceFolder: string | undefined): string | undefined {
  const ws = workspaceFolder === undefined ? undefined : path.resolve(workspaceFolder);
  return ws === path.resolve(home) ? undefined : ws;
}
