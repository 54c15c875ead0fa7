/** `alfred`: the harness on the command line, every command (hook calls run src/cli/hookMain.ts's smaller bundle). */
import { runCli, type CommandEntry } from './dispatch';
import { processIo, type CliIo } from './io';

/* eslint-disable @typescript-eslint/no-require-imports -- see LAZY */
/**
 * LAZY: each command's modules, and the libraries only they use, start when that command runs. The
 * bundle (build.mjs) turns a require() of a bundled module into an initializer called on demand, so
 * `alfred status` does not start the trial runner, the MCP audit (semver, tar) or the team ledger.
 * import() would do the same, but would make dispatch asynchronous for nothing.
 */
const COMMANDS: readonly CommandEntry[] = [
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

export function main(argv: string[], io: CliIo = processIo): Promise<number> {
  return runCli(argv, io, COMMANDS);
}

/** The launcher (src/cli/launcher.ts) runs the built bundle with this, or with the hook input it already read. */
export { processIo };

// Run when executed from source (`tsx src/cli/main.ts`); the built CLI's launcher calls main() itself.
if (process.argv[1] && /cli[\\/]main\.ts$/.test(process.argv[1])) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
}
