import { handleHook, isSupportedHookEvent, SUPPORTED_HOOK_EVENTS } from '../../core/hooks/handle';
import { HookInputError, parseHookInput } from '../../core/hooks/input';
import { denyAnswer } from '../../core/hooks/output';
import { openHarness } from '../context';
import { UsageError } from '../io';
import type { CliCommand } from './command';

/**
 * `alfred hook <Event>`: hook JSON on stdin, the agent's hook answer on stdout. Bad input is a
 * message on stderr and exit 1 (agents treat that as a warning, never as a refusal). A crash inside
 * Alfred lets the call through (fail open) unless the role says `fail_closed = true`.
 */
export const hookCommand: CliCommand = {
  name: 'hook',
  usage: `alfred hook <${SUPPORTED_HOOK_EVENTS.join('|')}> [--workspace DIR] < hook.json`,
  async run(args, io) {
    const event = args.positionals[0];
    if (!event) throw new UsageError(`Usage: ${hookCommand.usage}`);
    if (!isSupportedHookEvent(event)) {
      throw new UsageError(`alfred hook: unsupported event "${event}". Supported: ${SUPPORTED_HOOK_EVENTS.join(', ')}.\nUsage: ${hookCommand.usage}`);
    }
    let input;
    try {
      input = parseHookInput(await io.readStdin(), event, args.workspace);
    } catch (err) {
      if (err instanceof HookInputError) throw new UsageError(err.message);
      throw err;
    }
    const harness = await openHarness(args.explicitWorkspace ? args.workspace : input.cwd);
    try {
      const answer = await handleHook(harness, event, input);
      if (answer.stdout) io.out(answer.stdout);
      return answer.exitCode;
    } catch (err) {
      const message = `Alfred failed while handling ${event}: ${(err as Error).message}`;
      await harness.record([{ type: 'HookError', event, tool: input.tool, message: (err as Error).message }]).catch(() => undefined);
      if (harness.activeRole().role.failClosed) {
        io.out(denyAnswer(input.format, event, `${message}. Role ${harness.activeRole().role.name} is fail_closed, so the call is refused.`).stdout);
        return 0;
      }
      io.err(`${message} (the call goes ahead: Alfred fails open).`);
      return 1;
    }
  },
};
