/**
 * `alfred hook <Event>` from start to answer, for every caller: the command line and the extension's
 * resident hook server. Bad input: a message and exit 1 (agents read that as a warning, never as a
 * refusal). A crash inside Alfred lets the call through (fail open) unless the role says
 * `fail_closed = true`.
 */
import type { Harness } from '../../harness/harness';
import { handleHook, isSupportedHookEvent, SUPPORTED_HOOK_EVENTS, type HookRunOptions } from './handle';
import { HookInputError, parseHookInput } from './input';
import { denyAnswer } from './output';

export interface HookRunResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface HookRunContext {
  /** The event as the agent named it (`PreToolUse`, `preToolUse`, `agentStop`, …). */
  event: string | undefined;
  stdin: string;
  /** `--workspace` (or ALFRED_WORKSPACE); otherwise the input's `cwd` decides. */
  workspace?: string;
  /** Where the hook process runs: the folder when the input has no `cwd`. */
  processCwd: string;
  openHarness: (folder: string) => Promise<Harness>;
  options?: HookRunOptions;
}

export const HOOK_USAGE = `alfred hook <${SUPPORTED_HOOK_EVENTS.join('|')}> [--workspace DIR] < hook.json`;

/** Options an `alfred hook` process takes from its environment: ALFRED_STOP_MAX_BLOCKS. */
export function hookOptionsFromEnv(env: Readonly<Record<string, string | undefined>>): HookRunOptions {
  const maxBlocks = Number(env.ALFRED_STOP_MAX_BLOCKS);
  return env.ALFRED_STOP_MAX_BLOCKS && Number.isInteger(maxBlocks) && maxBlocks >= 0 ? { maxStopBlocks: maxBlocks } : {};
}

const fail = (message: string): HookRunResult => ({ stdout: '', stderr: message, exitCode: 1 });

export async function runHook(ctx: HookRunContext): Promise<HookRunResult> {
  const { event } = ctx;
  if (!event) return fail(`Usage: ${HOOK_USAGE}`);
  if (!isSupportedHookEvent(event)) return fail(`alfred hook: unsupported event "${event}". Supported: ${SUPPORTED_HOOK_EVENTS.join(', ')}.\nUsage: ${HOOK_USAGE}`);
  let input;
  try {
    input = parseHookInput(ctx.stdin, event, ctx.workspace ?? ctx.processCwd);
  } catch (err) {
    if (err instanceof HookInputError) return fail(err.message);
    throw err;
  }
  let harness: Harness;
  try {
    harness = await ctx.openHarness(ctx.workspace ?? input.cwd);
  } catch (err) {
    return fail(`alfred hook ${event}: ${(err as Error).message}`);
  }
  try {
    const answer = await handleHook(harness, event, input, ctx.options);
    return { stdout: answer.stdout, stderr: '', exitCode: answer.exitCode };
  } catch (err) {
    const message = `Alfred failed while handling ${event}: ${(err as Error).message}`;
    await harness.record([{ type: 'HookError', event, tool: input.tool, message: (err as Error).message }]).catch(() => undefined);
    const { role } = harness.activeRole();
    if (role.failClosed) {
      return { stdout: denyAnswer(input.format, event, `${message}. Role ${role.name} is fail_closed, so the call is refused.`, input.agent).stdout, stderr: '', exitCode: 0 };
    }
    return fail(`${message} (the call goes ahead: Alfred fails open).`);
  }
}
