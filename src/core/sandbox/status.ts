/** What the kernel sandbox does for the active role, for the dashboard and `/doctor` (no side effects). */
import type { SandboxMode } from '../roles/types';
import type { Sandbox } from './detect';

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
  /** `bwrap` or `sandbox-exec` when there is one. */
  kind?: string;
  /** Why there is none. */
  why?: string;
}

export function sandboxStatus(role: { name: string; sandbox: SandboxMode }, detected: Sandbox): SandboxStatus {
  const base = { mode: role.sandbox, role: role.name };
  if (role.sandbox === 'off') return { ...base, state: 'off' };
  if (detected.kind === 'none') return { ...base, state: role.sandbox === 'required' || role.sandbox === 'strict' ? 'refused' : 'parsing', why: detected.why };
  return { ...base, state: 'kernel', kind: detected.kind };
}
