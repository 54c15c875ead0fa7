import { HOOK_USAGE, hookOptionsFromEnv, runHook } from '../../core/integrations/hooks/run';
import { holdLocksBetweenUses, releaseKeptLocks } from '../../core/base/state/lock';
import { openHarness } from '../context';
import type { CliCommand } from './command';

/** `alfred hook <Event>`: hook JSON on stdin, the agent's hook answer on stdout (src/core/integrations/hooks/run.ts). */
export const hookCommand: CliCommand = {
  name: 'hook',
  usage: HOOK_USAGE,
  async run(args, io) {
    // One call takes the state lock two or three times (usage, decision, trace): taken once, kept
    // for the call, released before the answer is written (at most a second: see state/lock.ts).
    holdLocksBetweenUses(1_000);
    let result;
    try {
      result = await runHook({
        event: args.positionals[0],
        stdin: await io.readStdin(),
        ...(args.explicitWorkspace ? { workspace: args.workspace } : {}),
        processCwd: args.workspace,
        openHarness,
        options: hookOptionsFromEnv(process.env),
      });
    } finally {
      await releaseKeptLocks();
    }
    if (result.stdout) io.out(result.stdout);
    if (result.stderr) io.err(result.stderr);
    return result.exitCode;
  },
};
