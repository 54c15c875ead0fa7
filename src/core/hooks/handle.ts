/**
 * What Alfred answers to each agent hook event. PreToolUse decides (the gate) and charges shell calls;
 * PostToolUse charges the output's tokens and cost. The gate is the same one Alfred's own tools use.
 */
import type { Harness } from '../harness';
import { denyAnswer, passAnswer, type HookAnswer } from './output';
import type { HookInput } from './input';

const PRE = new Set(['PreToolUse', 'preToolUse']);
const POST = new Set(['PostToolUse', 'postToolUse']);

export const SUPPORTED_HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'preToolUse', 'postToolUse'] as const;

export function isSupportedHookEvent(event: string): boolean {
  return PRE.has(event) || POST.has(event);
}

export async function handleHook(harness: Harness, event: string, input: HookInput): Promise<HookAnswer> {
  const source = `hook:${event}`;
  if (PRE.has(event)) {
    if (!input.tool) return denyAnswer(input.format, 'PreToolUse', 'Alfred could not tell which tool this is (no tool_name in the hook input), so it refuses it.');
    const result = await harness.authorize({ tool: input.tool, toolInput: input.toolInput, source });
    if (!result.decision.allowed) return denyAnswer(input.format, 'PreToolUse', `Alfred (role ${result.status.role}): ${result.decision.reason ?? 'refused'}`);
    return passAnswer(input.format, 'PreToolUse', result.status.signal === 'WARNING' ? result.line : undefined);
  }
  if (POST.has(event)) {
    if (!input.tool) return passAnswer(input.format, 'PostToolUse');
    const result = await harness.chargeOutput({ tool: input.tool, output: input.toolResponse ?? '', source, model: input.model });
    return passAnswer(input.format, 'PostToolUse', result.status.signal !== 'OK' ? result.line : undefined);
  }
  throw new Error(`alfred hook: unsupported event "${event}". Supported: ${SUPPORTED_HOOK_EVENTS.join(', ')}.`);
}
