/**
 * What Alfred answers to each agent hook event, one handler per event. Every tool decision is the
 * gate's (Harness.authorize), the same one Alfred's own tools and `@alfred` use.
 */
import type { Harness } from '../harness';
import { canonicalHookEvent, SUPPORTED_HOOK_EVENTS, type HookEvent } from './events';
import { permissionRequest, postToolUse, preToolUse } from './handlers/toolUse';
import { sessionStart, userPromptSubmit } from './handlers/session';
import { stop } from './handlers/stop';
import { preCompact, subagentStart, subagentStop } from './handlers/subagents';
import type { HookHandler, HookRunOptions } from './handlers/types';
import type { HookInput } from './input';
import type { HookAnswer } from './output';
import { readNewClaudeUsage } from '../usage/claudeIngest';
import { readNewCopilotUsage, spoolPath } from '../usage/copilotSpool';

export { SUPPORTED_HOOK_EVENTS };
export type { HookRunOptions };

const HANDLERS: Readonly<Record<HookEvent, HookHandler>> = {
  SessionStart: sessionStart,
  UserPromptSubmit: userPromptSubmit,
  PreToolUse: preToolUse,
  PostToolUse: postToolUse,
  Stop: stop,
  PermissionRequest: permissionRequest,
  SubagentStart: subagentStart,
  SubagentStop: subagentStop,
  PreCompact: preCompact,
};

export function isSupportedHookEvent(event: string): boolean {
  return canonicalHookEvent(event) !== undefined;
}

export async function handleHook(harness: Harness, event: string, input: HookInput, options: HookRunOptions = {}): Promise<HookAnswer> {
  const canonical = canonicalHookEvent(event);
  if (!canonical) throw new Error(`alfred hook: unsupported event "${event}". Supported: ${SUPPORTED_HOOK_EVENTS.join(', ')}.`);
  await chargeClaudeUsage(harness, input, canonical);
  await chargeCopilotUsage(harness, input, canonical);
  return HANDLERS[canonical](harness, input, canonical, options);
}

/**
 * Claude Code's model requests since its last hook are charged first (measured), so this hook's
 * decision sees the session's real cost. A transcript Alfred cannot read never fails the hook.
 */
async function chargeClaudeUsage(harness: Harness, input: HookInput, event: HookEvent): Promise<void> {
  if (input.agent !== 'claude-code' || !input.transcriptPath) return;
  try {
    await harness.chargeMeasured(readNewClaudeUsage(harness.stateDir, input.transcriptPath));
  } catch (err) {
    await harness.record([{ type: 'HookError', event, message: `reading Claude Code's transcript: ${(err as Error).message}` }]).catch(() => undefined);
  }
}

/**
 * Copilot's model requests that its OpenTelemetry export brought to Alfred (usage/copilotSpool.ts),
 * for the sessions of this workspace: this hook's session joins them first. Charged before the
 * decision, like Claude Code's; a spool Alfred cannot read never fails the hook.
 */
async function chargeCopilotUsage(harness: Harness, input: HookInput, event: HookEvent): Promise<void> {
  if (input.agent !== undefined || !input.sessionId) return;
  try {
    const read = await readNewCopilotUsage(harness.stateDir, spoolPath(harness.env), input.sessionId);
    if (read.records.length > 0) await harness.chargeMeasured(read.records);
  } catch (err) {
    await harness.record([{ type: 'HookError', event, message: `reading Copilot's usage: ${(err as Error).message}` }]).catch(() => undefined);
  }
}
