/** What the kernel sandbox does for the active role, for the dashboard and `/doctor` (no side effects). */
import type { NetworkRules, SandboxMode } from '../rules/roles/types';
import { unrestricted } from './netRules';
import type { Sandbox } from './types';
import { sandboxFilter } from './seccomp';

export type SandboxState =
  /** Shell commands run in the kernel sandbox: they write only where work happens (mounts.ts), protected paths read-only there. */
  | 'kernel'
  /** `auto` without a sandbox: best-effort parsing only. */
  | 'parsing'
  /** `required` or `strict` without a sandbox: shell calls are refused. */
  | 'refused'
  /** The role turns it off: best-effort parsing only. */
  | 'off';

export interface SandboxStatus {
  state: SandboxState;
  mode: SandboxMode;
  role: string;
  /** `bwrap` or `sandbox-exec` when there is one (also when it is refused: there, but not usable as the role asks). */
  kind?: string;
  /** Why there is none, or why the one there cannot be used. */
  why?: string;
  /** Strict with bubblewrap where Alfred has a seccomp filter (seccomp.ts): commands open no Unix socket. */
  noUnixSockets?: true;
  /** The role's `allow_write` paths, written besides the workspace, temp and caches (kernel only). */
  allowWrite?: readonly string[];
  /** Where its commands' network goes (kernel only): through the proxy with these rules, or as it is (and why). */
  network?: { kind: 'filtered'; rules: NetworkRules } | { kind: 'open'; why: string };
}

/**
 * `strictFailure`: why bwrap could not set up the strict sandbox, when a strict plan's probe found so
 * (detect.ts, strictProbeFailure): strict then refuses shell as it does without a sandbox.
 */
export function sandboxStatus(role: { name: string; sandbox: SandboxMode; allowWrite?: readonly string[]; network?: NetworkRules }, detected: Sandbox, arch: string = process.arch, strictFailure?: string): SandboxStatus {
  const base = { mode: role.sandbox, role: role.name };
  if (role.sandbox === 'off') return { ...base, state: 'off' };
  if (detected.kind === 'none') return { ...base, state: role.sandbox === 'required' || role.sandbox === 'strict' ? 'refused' : 'parsing', why: detected.why };
  if (role.sandbox === 'strict' && detected.kind === 'bwrap' && strictFailure !== undefined) {
    return { ...base, state: 'refused', kind: detected.kind, why: `bubblewrap cannot set up the strict sandbox here: ${strictFailure}` };
  }
  const noUnixSockets = role.sandbox === 'strict' && detected.kind === 'bwrap' && sandboxFilter(arch) !== undefined;
  // Said where the role has them (a role built without the loader has neither).
  const network: SandboxStatus['network'] | undefined = !role.network ? undefined : !unrestricted(role.network)
    ? (detected.kind === 'bwrap' ? { kind: 'filtered', rules: role.network } : { kind: 'open', why: 'sandbox-exec has no network namespace' })
    : { kind: 'open', why: 'every name allowed' };
  return {
    ...base, state: 'kernel', kind: detected.kind, ...(noUnixSockets ? { noUnixSockets } : {}),
    ...(role.allowWrite?.length ? { allowWrite: role.allowWrite } : {}), ...(network ? { network } : {}),
  };
}
