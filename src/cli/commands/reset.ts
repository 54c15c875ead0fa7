import { openHarness } from '../context';
import type { CliCommand } from './command';

/** `alfred reset`: a new budget session for the active role. */
export const resetCommand: CliCommand = {
  name: 'reset',
  usage: 'alfred reset',
  async run(args, io) {
    const h = await openHarness(args.workspace);
    await h.reset('cli');
    io.out(h.budget().line);
    return 0;
  },
};
