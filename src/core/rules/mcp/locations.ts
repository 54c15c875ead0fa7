/**
 * Where VS Code keeps the user's `mcp.json` and settings.json, and a workspace's `.code-workspace`
 * files. Stable, Insiders, VSCodium and code-server each have a user folder of their own, with a
 * folder per profile; the editor also knows its own user folder (userDirOfGlobalStorage).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { userProfiles, type ProfileFiles } from './profiles';

const PRODUCTS = ['Code', 'Code - Insiders', 'VSCodium'];

/** The user folders (`…/User`) that may exist on this platform, most common first. */
export function vscodeUserDirs(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = os.homedir()): string[] {
  if (env.ALFRED_VSCODE_USER_DIR) return [path.resolve(env.ALFRED_VSCODE_USER_DIR)];
  const base = platform === 'win32' ? env.APPDATA ?? path.join(home, 'AppData', 'Roaming')
    : platform === 'darwin' ? path.join(home, 'Library', 'Application Support')
      : env.XDG_CONFIG_HOME ?? path.join(home, '.config');
  const dirs = PRODUCTS.map((p) => path.join(base, p, 'User'));
  if (platform !== 'win32') dirs.push(path.join(env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'code-server', 'User'));
  return dirs;
}

export interface UserConfigFiles {
  mcp: string[];
  settings: string[];
  /** Every profile of every user folder (profiles.ts). */
  profiles: ProfileFiles[];
}

/** The user's `mcp.json` and settings.json in each user folder (whether or not they exist: absent files hold no servers), and each profile's. */
export function userConfigFiles(dirs: readonly string[]): UserConfigFiles {
  const unique = [...new Set(dirs.map((d) => path.resolve(d)))];
  return {
    mcp: unique.map((d) => path.join(d, 'mcp.json')),
    settings: unique.map((d) => path.join(d, 'settings.json')),
    profiles: unique.flatMap(userProfiles),
  };
}

export function userMcpFiles(env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform, home?: string): UserConfigFiles {
  return userConfigFiles(vscodeUserDirs(env, platform, home));
}

/**
 * The user folder of the running editor, from an extension's `globalStorageUri`: VS Code gives every
 * extension `<User>/globalStorage/<extension id>` (the default profile's globalStorageHome, whichever
 * profile is active), so two levels up is the folder that holds mcp.json and profiles/. Undefined when
 * the path has another shape.
 */
export function userDirOfGlobalStorage(globalStoragePath: string): string | undefined {
  const storage = path.dirname(globalStoragePath);
  return path.basename(storage) === 'globalStorage' ? path.dirname(storage) : undefined;
}

/**
 * The `.code-workspace` files directly in a folder, for the command line, which is not told which
 * workspace file a window opened: those beside the folder's own files are the ones it can know of.
 */
export function workspaceFilesIn(folder: string): string[] {
  try {
    return fs.readdirSync(folder, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.code-workspace'))
      .map((e) => path.join(folder, e.name))
      .sort();
  } catch {
    return [];
  }
}
