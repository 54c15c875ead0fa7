/**
 * What Alfred answers to each agent hook event, one handler per event. Every tool decision is the
 * gate's (Harness.authorize), the same one Alfred's own tools and `@alfred` use.
 */
import type { Harness } from '../../harness/harness';
import { canonicalHookEvent, SUPPORTED_HOOK_EVENTS, type HookEvent } from './events';
import type { HookHandler, HookRunOptions } from './handlers/types';
import type { HookInput } from './input';
import type { HookAnswer } from './output';
import { readClaudeUsageAtStop, readNewClaudeUsage } from '../../usage/claudeIngest';
import { readNewGeminiUsage } from '../../usage/geminiTranscript';
import { readNewCopilotUsage, spoolPath } from '../../usage/copilotSpool';

export { SUPPORTED_HOOK_EVENTS };
export type { HookRunOptions };

/* eslint-disable @typescript-eslint/no-require-imports -- see LAZY */
/**
 * LAZY: a hook call no server answers starts Node for one event, so only that event's handler is
 * loaded (the bundles turn a require() of a bundled module into an initializer called on demand, as
 * in src/cli/main.ts). Stop's acceptance checks bring child_process, readline and net with them.
 */
const toolUse = () => require('./handlers/toolUse') as typeof import('./handlers/toolUse');
const session = () => require('./handlers/session') as typeof import('./handlers/session');
const subagents = () => require('./handlers/subagents') as typeof import('./handlers/subagents');
const HANDLERS: Readonly<Record<HookEvent, () => HookHandler>> = {
  SessionStart: () => session().sessionStart,
  UserPromptSubmit: () => session().userPromptSubmit,
  PreToolUse: () => toolUse().preToolUse,
  PostToolUse: () => toolUse().postToolUse,
  Stop: () => (require('./handlers/stop') as typeof import('./handlers/stop')).stop,
  PermissionRequest: () => toolUse().permissionRequest,
  SubagentStart: () => subagents().subagentStart,
  SubagentStop: () => subagents().subagentStop,
  PreCompact: () => subagents().preCompact,
};
/* eslint-enable @typescript-eslint/no-require-imports */

export function isSupportedHookEvent(event: string): boolean {
  return canonicalHookEvent(event) !== undefined;
}

export async function handleHook(harness: Harness, event: string, input: HookInput, options: HookRunOptions = {}): Promise<HookAnswer> {
  const canonical = canonicalHookEvent(event);
  if (!canonical) throw new Error(`alfred hook: unsupported event "${event}". Supported: ${SUPPORTED_HOOK_EVENTS.join(', ')}.`);
  await chargeClaudeUsage(harness, input, canonical);
  await chargeGeminiUsage(harness, input, canonical);
  await chargeCopilotUsage(harness, input, canonical);
  return HANDLERS[canonical]()(harness, input, canonical, options);
}

/**
 * Claude Code's model requests since its last hook are charged first (measured), so this hook's
 * decision sees the session's real cost; at Stop, the turn's last answer too (waited for, as Claude
 * Code may write it after its Stop hook ran). A transcript Alfred cannot read never fails the hook.
 */
async function chargeClaudeUsage(harness: Harness, input: HookInput, event: HookEvent): Promise<void> {
  if (input.agent !== 'claude-code' || !input.transcriptPath) return;
  try {
    const records = event === 'Stop' ? await readClaudeUsageAtStop(harness.stateDir, input.transcriptPath) : await readNewClaudeUsage(harness.stateDir, input.transcriptPath);
    await harness.chargeMeasured(records);
  } catch (err) {
    await harness.record([{ type: 'HookError', event, message: `reading Claude Code's transcript: ${(err as Error).message}` }]).catch(() => undefined);
  }
}

/** Gemini CLI's model answers since its last hook, from the session file its hook names (usage/geminiTranscript.ts), as Claude Code's. */
async function chargeGeminiUsage(harness: Harness, input: HookInput, event: HookEvent): Promise<void> {
  if (input.agent !== 'gemini' || !input.transcriptPath) return;
  try {
    await harness.chargeMeasured(await readNewGeminiUsage(harness.stateDir, input.transcriptPath));
  } catch (err) {
    await harness.record([{ type: 'HookError', event, message: `reading Gemini CLI's session file: ${(err as Error).message}` }]).catch(() => undefined);
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
