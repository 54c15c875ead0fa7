import { askToType, canAskHere } from '../confirmHere';
import { openHarness } from '../context';
import { json, UsageError } from '../io';
import type { CliCommand } from './command';

/**
 * `alfred role [NAME]`: shows the active role, or switches to NAME (a fresh budget session). A switch
 * to a role with more authority takes effect only when the user confirms it: here, at an interactive
 * terminal outside any editor or agent, or else in VS Code (the request is logged and a dialog asks).
 */
export const roleCommand: CliCommand = {
  name: 'role',
  usage: 'alfred role [NAME] [--json]',
  async run(args, io) {
    const h = await openHarness(args.workspace);
    const name = args.positionals[0];
    let pending: string[] | undefined;
    if (name) {
      try {
        const gains = h.authorityGainOf(name);
        const confirmed = gains.length === 0
          || (canAskHere() && await askToType(`Switch to role ${name}? It gives more authority: ${gains.join('; ')}.`, name));
        if (confirmed) await h.switchRole(name, gains.length ? 'cli (confirmed at the terminal)' : 'cli');
        else {
          await h.requestAuthority({ action: 'role', target: name, by: 'cli', gains });
          pending = gains;
        }
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
    }
    const active = h.activeRole();
    if (args.json) io.out(json({ role: active.role.name, from: active.from, source: active.role.source, problem: active.problem ?? null, ...(pending ? { requested: name, gains: pending } : {}) }));
    else if (pending) {
      io.out(`Not switched: role ${name} has more authority than ${active.role.name} (${pending.join('; ')}). `
        + 'The request waits for your confirmation in VS Code (a dialog asks), or run this command yourself at an interactive terminal outside VS Code.');
    } else {
      io.out(name ? `Switched to role ${active.role.name}.` : `${active.role.name} (${active.from}): ${active.role.description}`);
      if (active.problem) io.err(active.problem);
    }
    return pending ? 3 : 0;
  },
};
