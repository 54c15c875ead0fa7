/** `alfred`: the harness on the command line. Argument parsing and dispatch only. */
import { parseArgs } from 'node:util';
import type { CliCommand } from './commands/command';
import { processIo, UsageError, type CliIo } from './io';

/* eslint-disable @typescript-eslint/no-require-imports -- see LAZY */
/**
 * LAZY: each command's modules, and the libraries only they use, start when that command runs. The
 * bundle (build.mjs) turns a require() of a bundled module into an initializer called on demand, so a
 * hook call without a hook server does not start the trial runner, the MCP audit (semver, tar) or the
 * team ledger. import() would do the same, but would make dispatch asynchronous for nothing.
 */
const COMMANDS: ReadonlyArray<{ name: string; load: () => CliCommand }> = [
  { name: 'status', load: () => (require('./commands/status') as typeof import('./commands/status')).statusCommand },
  { name: 'roles', load: () => (require('./commands/roles') as typeof import('./commands/roles')).rolesCommand },
  { name: 'role', load: () => (require('./commands/role') as typeof import('./commands/role')).roleCommand },
  { name: 'budget', load: () => (require('./commands/budget') as typeof import('./commands/budget')).budgetCommand },
  { name: 'usage', load: () => (require('./commands/usage') as typeof import('./commands/usage')).usageCommand },
  { name: 'team', load: () => (require('./commands/team') as typeof import('./commands/team')).teamCommand },
  { name: 'events', load: () => (require('./commands/events') as typeof import('./commands/events')).eventsCommand },
  { name: 'reset', load: () => (require('./commands/reset') as typeof import('./commands/reset')).resetCommand },
  { name: 'check', load: () => (require('./commands/check') as typeof import('./commands/check')).checkCommand },
  { name: 'doctor', load: () => (require('./commands/doctor') as typeof import('./commands/doctor')).doctorCommand },
  { name: 'audit', load: () => (require('./commands/audit') as typeof import('./commands/audit')).auditCommand },
  { name: 'hook', load: () => (require('./commands/hook') as typeof import('./commands/hook')).hookCommand },
  { name: 'serve', load: () => (require('./commands/serve') as typeof import('./commands/serve')).serveCommand },
  { name: 'trial', load: () => (require('./commands/trial') as typeof import('./commands/trial')).trialCommand },
  { name: 'compare', load: () => (require('./commands/compare') as typeof import('./commands/compare')).compareCommand },
];
/* eslint-enable @typescript-eslint/no-require-imports */

function help(): string {
  return ['alfred: the agent harness, from the command line.', '', 'Usage:', ...COMMANDS.map((c) => `  ${c.load().usage}`), '',
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
  const command = COMMANDS.find((c) => c.name === name)?.load();
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
