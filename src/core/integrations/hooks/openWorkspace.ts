/**
 * Opens the harness of a workspace folder as the command line sees it: the user's own authority
 * (trusted), `alfred.role` from the workspace's .vscode/settings.json (which may lower authority, never
 * raise it: Harness.activeRole), checks.toml's protected paths.
 * The `alfred` command line and the resident hook server both open harnesses here, so a hook answers
 * the same whichever runs it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { publishedPricingReader } from '../../rules/budget/pricingFile';
import { protectedGlobsReader } from '../../protect/protectGlobs';
import { stateDir } from '../../base/state/paths';
import { Harness, type HarnessOptions } from '../../harness/harness';

export interface OpenWorkspaceOptions {
  /** The built-in roles: the CLI's and the extension's own `roles/` folder. */
  builtinRolesDir: string;
  version: string;
  /** The environment the harness reads (ALFRED_HOME, ALFRED_ROLE, LEAN_CTX_ROLE, HOME…); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** What a relative `workspace` is relative to; default the process's folder. */
  cwd?: string;
  /** HarnessOptions.traceLater: the hook server's, which writes traces once the answer is sent. */
  traceLater?: HarnessOptions['traceLater'];
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

/** The home `env` names, as os.homedir() finds it in its own process's; undefined when it names none. */
function homeOf(env: NodeJS.ProcessEnv): string | undefined {
  const home = process.platform === 'win32' ? env.USERPROFILE : env.HOME;
  return home && path.isAbsolute(home) ? home : undefined;
}

export async function openWorkspaceHarness(workspace: string, opts: OpenWorkspaceOptions): Promise<Harness> {
  const folder = opts.cwd ? path.resolve(opts.cwd, workspace) : path.resolve(workspace);
  if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) throw new Error(`--workspace ${workspace}: not a folder.`);
  // A served call's home is its caller's (its HOME forwarded), as in the caller's own process.
  const home = opts.env ? homeOf(opts.env) : undefined;
  return new Harness({
    workspaceFolder: folder,
    builtinRolesDir: opts.builtinRolesDir,
    trusted: true,
    workspaceRoleSetting: await workspaceRoleSetting(folder),
    protectedGlobs: protectedGlobsReader(folder),
    version: opts.version,
    ...(opts.traceLater ? { traceLater: opts.traceLater } : {}),
    pricing: publishedPricingReader(stateDir(folder, opts.env)),
    ...(opts.env ? { env: opts.env } : {}),
    ...(home ? { homeDir: home } : {}),
  });
}
