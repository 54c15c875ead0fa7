import { shellCommandOf } from '../../policy/categories';
import { denyAnswer, passAnswer, permissionAnswer } from '../output';
import type { HookHandler } from './types';

/** PreToolUse: the gate decides and charges a new shell invocation before it runs. */
export const preToolUse: HookHandler = async (harness, input, event) => {
  const name = input.format === 'copilot-cli' ? 'preToolUse' : 'PreToolUse';
  if (!input.tool) return denyAnswer(input.format, name, 'Alfred could not tell which tool this is (no tool_name in the hook input), so it refuses it.');
  // The command a terminal will show when it runs, so its end there is not charged a second time.
  const terminalCommand = shellCommandOf(input.tool, input.toolInput);
  const result = await harness.authorize({
    tool: input.tool, toolInput: input.toolInput, source: `hook:${event}`, ...(input.model ? { model: input.model } : {}),
    ...(terminalCommand ? { terminalCommand } : {}),
  });
  if (!result.decision.allowed) return denyAnswer(input.format, name, `Alfred (role ${result.status.role}): ${result.decision.reason ?? 'refused'}`);
  return passAnswer(input.format, name, result.status.signal !== 'OK' ? result.line : undefined);
};

/** PostToolUse: the output's tokens and their estimated cost are charged. */
export const postToolUse: HookHandler = async (harness, input, event) => {
  const name = input.format === 'copilot-cli' ? 'postToolUse' : 'PostToolUse';
  if (!input.tool) return passAnswer(input.format, name);
  const result = await harness.chargeOutput({ tool: input.tool, output: input.toolResponse ?? '', source: `hook:${event}`, model: input.model });
  return passAnswer(input.format, name, result.status.signal !== 'OK' ? result.line : undefined);
};

/**
 * The Copilot CLI's permissionRequest comes after preToolUse, which already decided and charged:
 * here the gate only looks (nothing charged) and refuses what it would refuse.
 */
export const permissionRequest: HookHandler = async (harness, input) => {
  if (!input.tool) return permissionAnswer(undefined);
  const decision = harness.preview({ tool: input.tool, toolInput: input.toolInput });
  return permissionAnswer(decision.allowed ? undefined : `Alfred (role ${harness.activeRole().role.name}): ${decision.reason ?? 'refused'}`);
};
