import { askToType, canAskHere } from '../confirmHere';
import { openHarness } from '../context';
import { json } from '../io';
import type { CliCommand } from './command';

/**
 * `alfred reset`: a new budget session for the active role. A fresh budget is more authority, so it
 * takes effect only when the user confirms it (here at an interactive terminal outside any editor or
 * agent, else in VS Code) and is recorded with who asked.
 */
export const resetCommand: CliCommand = {
  name: 'reset',
  usage: 'alfred reset [--json]',
  async run(args, io) {
    const h = await openHarness(args.workspace);
    const role = h.activeRole().role.name;
    if (canAskHere() && await askToType(`Reset the budget of role ${role}?`, 'reset')) {
      await h.reset('cli (confirmed at the terminal)');
      io.out(args.json ? json({ reset: true, line: h.budget().line }) : h.budget().line);
      return 0;
    }
    await h.requestAuthority({ action: 'reset', by: 'cli', gains: ['a fresh budget'] });
    io.out(args.json ? json({ reset: false, requested: true, line: h.budget().line })
      : 'Not reset yet: the request waits for your confirmation in VS Code (a dialog asks), or run `alfred reset` yourself at an interactive terminal outside VS Code.');
    return 3;
  },
};
