/**
 * Where VS Code keeps the user's `mcp.json` and settings.json, for the command line (the extension asks
 * VS Code instead). Stable, Insiders, VSCodium and code-server each have a user folder of their own.
 */
import * as os from 'node:os';
import * as path from 'node:path';

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

/** The user's `mcp.json` and settings.json in each user folder (whether or not they exist: absent files hold no servers). */
export function userMcpFiles(env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform, home?: string): { mcp: string[]; settings: string[] } {
  const dirs = vscodeUserDirs(env, platform, home);
  return { mcp: dirs.map((d) => path.join(d, 'mcp.json')), settings: dirs.map((d) => path.join(d, 'settings.json')) };
}
