/**
 * `alfred hook` alone, bundled apart as dist/cli/alfred-hook.cjs: a hook call that no hook server
 * answers runs in its own Node process, and reading and checking a bundle costs by its size, so this
 * one holds only what a hook runs (about half of alfred-main.cjs). src/cli/runBundle.ts picks it.
 */
import { hookCommand } from './commands/hook';
import { runCli } from './dispatch';
import { processIo, type CliIo } from './io';

export function main(argv: string[], io: CliIo = processIo): Promise<number> {
  return runCli(argv, io, [{ name: 'hook', load: () => hookCommand }]);
}

export { processIo };
