/** What the kernel sandbox does for the active role, for the dashboard and `/doctor` (no side effects). */
import type { SandboxMode } from '../roles/types';
import type { Sandbox } from './types';
import { sandboxFilter } from './seccomp';

export type SandboxState =
  /** Shell commands run with protected paths, governance files and Alfred's home read-only. */
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
}

/**
 * `strictFailure`: why bwrap could not set up the strict sandbox, when a strict plan's probe found so
 * (detect.ts, strictProbeFailure): strict then refuses shell as it does without a sandbox.
 */
export function sandboxStatus(role: { name: string; sandbox: SandboxMode }, detected: Sandbox, arch: string = process.arch, strictFailure?: string): SandboxStatus {
  const base = { mode: role.sandbox, role: role.name };
  if (role.sandbox === 'off') return { ...base, state: 'off' };
  if (detected.kind === 'none') return { ...base, state: role.sandbox === 'required' || role.sandbox === 'strict' ? 'refused' : 'parsing', why: detected.why };
  if (role.sandbox === 'strict' && detected.kind === 'bwrap' && strictFailure !== undefined) {
    return { ...base, state: 'refused', kind: detected.kind, why: `bubblewrap cannot set up the strict sandbox here: ${strictFailure}` };
  }
  const noUnixSockets = role.sandbox === 'strict' && detected.kind === 'bwrap' && sandboxFilter(arch) !== undefined;
  return { ...base, state: 'kernel', kind: detected.kind, ...(noUnixSockets ? { noUnixSockets } : {}) };
}
