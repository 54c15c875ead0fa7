/**
 * The resident hook server's wire format, shared by the server (src/core/hooks/server.ts) and the
 * `alfred` launcher's client (src/cli/hookClient.ts). One request per connection: a line of JSON
 * in, a line of JSON out. Kept free of heavy imports: the launcher loads this on every hook call.
 */
import { join } from 'node:path';

export const HOOK_PROTOCOL_VERSION = 1;

/** The caller's variables that change what a hook answers (the active role, Stop's limit). */
export const FORWARDED_ENV = ['ALFRED_ROLE', 'LEAN_CTX_ROLE', 'ALFRED_STOP_MAX_BLOCKS'] as const;
export type ForwardedEnv = Partial<Record<(typeof FORWARDED_ENV)[number], string>>;

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
