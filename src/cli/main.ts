/** `alfred`: the harness on the command line. Argument parsing and dispatch only. */
import { parseArgs } from 'node:util';
import { auditCommand } from './commands/audit';
import { budgetCommand } from './commands/budget';
import { usageCommand } from './commands/usage';
import { teamCommand } from './commands/team';
import { compareCommand } from './commands/compare';
import { trialCommand } from './commands/trial';
import { checkCommand } from './commands/check';
import { doctorCommand } from './commands/doctor';
import type { CliCommand } from './commands/command';
import { eventsCommand } from './commands/events';
import { hookCommand } from './commands/hook';
import { resetCommand } from './commands/reset';
import { roleCommand } from './commands/role';
import { rolesCommand } from './commands/roles';
import { serveCommand } from './commands/serve';
import { statusCommand } from './commands/status';
import { processIo, UsageError, type CliIo } from './io';

const COMMANDS: readonly CliCommand[] = [statusCommand, rolesCommand, roleCommand, budgetCommand, usageCommand, teamCommand, eventsCommand, resetCommand, checkCommand, doctorCommand, auditCommand, hookCommand, serveCommand, trialCommand, compareCommand];

function help(): string {
  return ['alfred: the agent harness, from the command line.', '', 'Usage:', ...COMMANDS.map((c) => `  ${c.usage}`), '',
    'Every command takes --workspace DIR (default: the current folder). ALFRED_HOME moves the state root (default ~/.alfred).'].join('\n');
}

export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
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
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    io.err(`${(err as Error).message}\n\n${help()}`);
    return 1;
  }
  const [name, ...positionals] = parsed.positionals;
  if (parsed.values.help || !name) {
    io.out(help());
    return name || parsed.values.help ? 0 : 1;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`alfred: unknown command "${name}".\n\n${help()}`);
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
    }, io);
  } catch (err) {
    io.err(err instanceof UsageError ? err.message : `alfred ${name}: ${(err as Error).message}`);
    return 1;
  }
}

/** The launcher (src/cli/launcher.ts) runs the built bundle with this, or with the hook input it already read. */
export { processIo };

// Run when executed from source (`tsx src/cli/main.ts`); the built CLI's launcher calls main() itself.
if (process.argv[1] && /cli[\\/]main\.ts$/.test(process.argv[1])) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
}
