/**
 * The resident hook server's wire format, shared by the server (src/core/integrations/hooks/server.ts) and the
 * `alfred` launcher's client (src/cli/hookClient.ts). One request per connection: a line of JSON
 * in, a line of JSON out. Kept free of heavy imports: the launcher loads this on every hook call.
 */
import { join } from 'node:path';

/**
 * 5: the caller names the build it runs (`build`; 4 did not, so a server of another build answered);
 * 4: FORWARDED_ENV names where Jupyter and VS Code's servers keep their keys (3 did not); 3 named
 * where tmux, screen, the user's runtime folder and Docker keep their sockets (2 did not; 1 carried
 * the role variables alone).
 */
export const HOOK_PROTOCOL_VERSION = 5;

/**
 * The build of Alfred a process runs, as the launcher names it: the runtime as the launcher starts it
 * (`process.argv0` in the process it starts) and the command line's file. Only a server of the same
 * build answers a call (serverBuild.ts): the launcher may have been rewritten for another install.
 */
export interface BuildOf {
  runtime: string;
  cli: string;
}

/**
 * The caller's variables that change what a hook answers: the active role and Stop's limit, and
 * every variable a decision reads (where the home, its configuration and its tools are, which sandbox,
 * which ledger, where the servers the sandbox hides keep their sockets and keys). A served call answers with
 * the caller's values of these, set or unset, as the caller's own process would:
 * test/unit/integrations/hooks/forwardedEnv.test.ts proves a decision reads no other variable but ALFRED_HOME,
 * which names the server's own home (the one whose socket the caller found).
 */
export const FORWARDED_ENV = [
  'ALFRED_ROLE', 'LEAN_CTX_ROLE', 'ALFRED_STOP_MAX_BLOCKS',
  'HOME', 'USERPROFILE', 'PATH', 'Path', 'TMPDIR', 'TMP', 'TEMP', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'APPDATA',
  'ALFRED_SANDBOX', 'ALFRED_VSCODE_USER_DIR',
  'ALFRED_LEDGER_URL', 'ALFRED_LEDGER_BACKEND', 'ALFRED_LEDGER_SCOPE', 'ALFRED_LEDGER_RETENTION_DAYS',
  'ALFRED_USER', 'ALFRED_REPOSITORY', 'ALFRED_MACHINE', 'ALFRED_TAGS',
  'GIT_CONFIG_GLOBAL', 'NPM_CONFIG_USERCONFIG', 'npm_config_userconfig', 'GOENV', 'AWS_CONFIG_FILE', 'PIP_CONFIG_FILE',
  'UV_CONFIG_FILE', 'CONDARC', 'KUBECONFIG', 'DOCKER_CONFIG', 'GNUPGHOME',
  'ASDF_DATA_DIR', 'CARGO_HOME', 'FNM_DIR', 'GRADLE_USER_HOME', 'NVM_DIR', 'PYENV_ROOT', 'PYTHONUSERBASE', 'RBENV_ROOT',
  'RUSTUP_HOME', 'SDKMAN_DIR', 'VOLTA_HOME',
  'TMUX_TMPDIR', 'SCREENDIR', 'XDG_RUNTIME_DIR', 'DOCKER_HOST',
  'JUPYTER_RUNTIME_DIR', 'JUPYTER_DATA_DIR', 'VSCODE_AGENT_FOLDER', 'VSCODE_CLI_DATA_DIR',
] as const;
export type ForwardedEnv = Partial<Record<(typeof FORWARDED_ENV)[number], string>>;

/** What a caller with `env` forwards: its FORWARDED_ENV variables that are set. */
export function forwardedEnv(env: NodeJS.ProcessEnv): ForwardedEnv {
  const out: ForwardedEnv = {};
  for (const key of FORWARDED_ENV) if (env[key] !== undefined) out[key] = env[key];
  return out;
}

export interface HookRequest {
  v: typeof HOOK_PROTOCOL_VERSION;
  /** The event as the agent named it (`PreToolUse`, `preToolUse`, …). */
  event: string;
  stdin: string;
  /** `--workspace` or ALFRED_WORKSPACE, absolute; otherwise the input's `cwd` decides. */
  workspace?: string;
  /** The hook process's folder, absolute: relative paths are resolved against it. */
  processCwd: string;
  env: ForwardedEnv;
  /**
   * Asked from inside the kernel sandbox (its own port file's token; nativeListener.ts): decided with
   * the server's environment, `env` ignored. A nested agent's hook may not pick its role or sandbox.
   */
  sandboxed?: true;
  /** The caller's build; a server of another build does not answer. */
  build?: BuildOf;
}

/** What `alfred hook` would print and exit with; `error` instead when the server could not run it. */
export type HookResponse =
  | { stdout: string; stderr: string; exitCode: number; pid: number }
  | { error: string };

/** Past this a request is refused (the client runs the hook itself): a tool response may be large, not unbounded. */
export const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

/**
 * `<alfred home>/run/hook.sock` (the folder mode 0700, the socket 0600); on Windows a named pipe
 * named after the alfred home, so each ALFRED_HOME has its own server.
 */
export function hookSocketPath(home: string, platform: NodeJS.Platform, sha256Hex: (text: string) => string): string {
  return platform === 'win32' ? `\\\\.\\pipe\\alfred-hook-${sha256Hex(home).slice(0, 16)}` : join(home, 'run', 'hook.sock');
}

/** An answer the client may print as it is. */
export function isHookAnswer(value: unknown): value is { stdout: string; stderr: string; exitCode: number; pid: number } {
  const r = value as Record<string, unknown> | null;
  return typeof r === 'object' && r !== null && typeof r.stdout === 'string' && typeof r.stderr === 'string'
    && Number.isInteger(r.exitCode) && (r.exitCode as number) >= 0 && (r.exitCode as number) < 256;
}
