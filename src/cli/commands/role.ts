import { openHarness } from '../context';
import { json, UsageError } from '../io';
import type { CliCommand } from './command';

/** `alfred role [NAME]`: shows the active role, or switches to NAME (a fresh budget session). */
export const roleCommand: CliCommand = {
  name: 'role',
  usage: 'alfred role [NAME] [--json]',
  async run(args, io) {
    const h = await openHarness(args.workspace);
    const name = args.positionals[0];
    if (name) {
      try {
        await h.switchRole(name, 'cli');
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
    }
    const active = h.activeRole();
    if (args.json) io.out(json({ role: active.role.name, from: active.from, source: active.role.source, problem: active.problem ?? null }));
    else {
      io.out(name ? `Switched to role ${active.role.name}.` : `${active.role.name} (${active.from}): ${active.role.description}`);
      if (active.problem) io.err(active.problem);
    }
    return 0;
  },
};
