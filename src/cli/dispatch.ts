/** The command line's argument parsing and dispatch, over a table of commands loaded on demand. */
import { parseArgs } from 'node:util';
import type { CliCommand } from './commands/command';
import { UsageError, type CliIo } from './io';

export interface CommandEntry {
  name: string;
  /** The command's module, started only when it runs (see main.ts). */
  load: () => CliCommand;
}

function help(commands: readonly CommandEntry[]): string {
  return ['alfred: the agent harness, from the command line.', '', 'Usage:', ...commands.map((c) => `  ${c.load().usage}`), '',
    'Every command takes --workspace DIR (default: the current folder). ALFRED_HOME moves the state root (default ~/.alfred).'].join('\n');
}

export async function runCli(argv: string[], io: CliIo, commands: readonly CommandEntry[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'boolean', default: false },
        workspace: { type: 'string' },
        tail: { type: 'string' },
        since: { type: 'string' },
        suite: { type: 'string' },
        condition: { type: 'string' },
        history: { type: 'boolean', default: false },
        'on-demand': { type: 'boolean', default: false },
        'idle-exit': { type: 'string' },
        verify: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    io.err(`${(err as Error).message}\n\n${help(commands)}`);
    return 1;
  }
  const [name, ...positionals] = parsed.positionals;
  if (parsed.values.help || !name) {
    io.out(help(commands));
    return name || parsed.values.help ? 0 : 1;
  }
  const command = commands.find((c) => c.name === name)?.load();
  if (!command) {
    io.err(`alfred: unknown command "${name}".\n\n${help(commands)}`);
    return 1;
  }
  const tail = parsed.values.tail === undefined ? undefined : Number(parsed.values.tail);
  if (tail !== undefined && (!Number.isInteger(tail) || tail < 1)) {
    io.err('alfred: --tail needs a positive whole number.');
    return 1;
  }
  try {
    return await command.run({
      positionals,
      json: parsed.values.json ?? false,
      workspace: parsed.values.workspace ?? process.env.ALFRED_WORKSPACE ?? process.cwd(),
      explicitWorkspace: parsed.values.workspace !== undefined || process.env.ALFRED_WORKSPACE !== undefined,
      tail,
      ...(parsed.values.since !== undefined ? { since: parsed.values.since } : {}),
      ...(parsed.values.suite !== undefined ? { suite: parsed.values.suite } : {}),
      ...(parsed.values.condition !== undefined ? { condition: parsed.values.condition } : {}),
      ...(parsed.values.history ? { history: true } : {}),
      ...(parsed.values['on-demand'] ? { onDemand: true } : {}),
      ...(parsed.values['idle-exit'] !== undefined ? { idleExit: parsed.values['idle-exit'] } : {}),
      ...(parsed.values.verify ? { verify: true } : {}),
    }, io);
  } catch (err) {
    io.err(err instanceof UsageError ? err.message : `alfred ${name}: ${(err as Error).message}`);
    return 1;
  }
}
