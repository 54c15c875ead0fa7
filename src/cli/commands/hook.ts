import { HOOK_USAGE, hookOptionsFromEnv, runHook } from '../../core/hooks/run';
import { openHarness } from '../context';
import type { CliCommand } from './command';

/** `alfred hook <Event>`: hook JSON on stdin, the agent's hook answer on stdout (src/core/hooks/run.ts). */
export const hookCommand: CliCommand = {
  name: 'hook',
  usage: HOOK_USAGE,
  async run(args, io) {
    const result = await runHook({
      event: args.positionals[0],
      stdin: await io.readStdin(),
      ...(args.explicitWorkspace ? { workspace: args.workspace } : {}),
      processCwd: args.workspace,
      openHarness,
      options: hookOptionsFromEnv(process.env),
    });
    if (result.stdout) io.out(result.stdout);
    if (result.stderr) io.err(result.stderr);
    return result.exitCode;
  },
};
