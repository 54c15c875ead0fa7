import type { CliIo } from '../io';

export interface CliArgs {
  positionals: string[];
  json: boolean;
  workspace: string;
  /** --workspace was given (else the hook input's cwd decides). */
  explicitWorkspace: boolean;
  tail?: number;
  /** `alfred usage --since`. */
  since?: string;
  /** `alfred trial run --suite`: the suite file. */
  suite?: string;
  /** `alfred trial run --condition`. */
  condition?: string;
  /** `alfred compare --history`: fingerprints of recorded work instead of a suite's conditions. */
  history?: boolean;
  /** `alfred serve --on-demand`: started by a hook call (src/cli/serverStart.ts). */
  onDemand?: boolean;
  /** `alfred serve --idle-exit SECONDS`. */
  idleExit?: string;
  /** `alfred events --verify`: check the log's hash chain. */
  verify?: boolean;
}

export interface CliCommand {
  name: string;
  usage: string;
  run(args: CliArgs, io: CliIo): Promise<number>;
}
