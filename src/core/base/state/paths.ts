/** Where the harness keeps its state: outside the workspace, where an agent's tools cannot write. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sha256Hex } from '../crypto/sha256';

/** Ids by real path: a hook call asks three or four times, and hashes in JavaScript when it runs alone. */
const ids = new Map<string, string>();

/** First 16 hex digits of the SHA-256 of the folder's real path (resolved path if it does not exist). */
export function workspaceId(folder: string): string {
  let real: string;
  try {
    real = fs.realpathSync(folder);
  } catch {
    real = path.resolve(folder);
  }
  let id = ids.get(real);
  if (id === undefined) {
    id = sha256Hex(real).slice(0, 16);
    if (ids.size >= 64) ids.clear();
    ids.set(real, id);
  }
  return id;
}

/**
 * What a workspace's sandbox plan leaves in `<Alfred's folder>/run/sandbox` (read-only inside the
 * sandbox): its arguments, and the mounts and paths saved for hook calls without a server.
 */
export const PLAN_FILE_KINDS = ['args', 'mounts.json', 'later.json'] as const;

/**
 * The hook server's port files in `<Alfred's folder>/run`: the launcher's (port, token, proof), and the
 * one the kernel sandbox shows in its place (a token and a proof of their own: a call from inside the
 * sandbox is told apart, and decided with the server's environment, never its own).
 */
export const PORT_FILE = 'hook.tcp';
export const SANDBOXED_PORT_FILE = 'hook.sandboxed.tcp';

/** One of a workspace's plan files, `<alfredDir>/run/sandbox/<workspace id>.<kind>`. */
export function planFile(alfredDir: string, id: string, kind: (typeof PLAN_FILE_KINDS)[number]): string {
  return path.join(alfredDir, 'run', 'sandbox', `${id}.${kind}`);
}

/**
 * Where a workspace's commands under `sandbox = "strict"` write in place of the temporary folders and
 * download caches (sandbox/mounts.ts, ownCopies): `<alfredDir>/sandbox-copies/<workspace id>`.
 * Dropped with the workspace's plan files once unused (sandbox/launcher.ts).
 */
export function sandboxCopies(alfredDir: string, id: string): string {
  return path.join(alfredDir, 'sandbox-copies', id);
}

/** `${ALFRED_HOME:-~/.alfred}`. */
export function alfredHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.ALFRED_HOME ? path.resolve(env.ALFRED_HOME) : path.join(os.homedir(), '.alfred');
}

/** `${ALFRED_HOME:-~/.alfred}/state/<workspace id>`, created (mode 0700) when missing. */
export function stateDir(folder: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = path.join(alfredHome(env), 'state', workspaceId(folder));
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}
