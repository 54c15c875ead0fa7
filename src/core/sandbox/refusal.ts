/** The gate's `sandbox-required` refusal: a shell call that a role needs in the kernel sandbox and that will not run there. */
import type { ToolCall } from '../rules/policy/toolCall';
import type { Toolset } from '../rules/policy/toolsets';
import type { Role } from '../rules/roles/types';
import { sandboxVerdict } from './index';

/**
 * Why a shell call is refused under `sandbox = "required"` (or `"strict"`): it will not run in the kernel sandbox.
 * `sandboxed` is the caller's word (a hook that rewrote the command); ctx_shell always runs in it when there is one.
 * `toolset`: whose tools the refusal suggests instead (a hook's agent's, or Alfred's own).
 */
export function sandboxRefusal(role: Role, call: ToolCall, sandboxed: boolean | undefined, env: NodeJS.ProcessEnv, toolset: Toolset = 'alfred'): string | undefined {
  if ((role.sandbox !== 'required' && role.sandbox !== 'strict') || !call.newShell) return undefined;
  const plan = sandboxVerdict({ role, env });
  if (plan.kind === 'refused') return plan.reason;
  if (sandboxed ?? (call.name === 'ctx_shell' && plan.kind === 'sandboxed')) return undefined;
  const instead = toolset === 'alfred' ? 'Use ctx_shell, or ask the user to switch role.' : 'Ask the user to switch role to run it.';
  return `${call.name} cannot be run in the kernel sandbox from here (this agent does not let Alfred rewrite its command), and role ${role.name} requires one (sandbox = "${role.sandbox}"). ${instead}`;
}
