import { openHarness } from '../context';
import { json } from '../io';
import type { CliCommand } from './command';

/** `alfred budget [--json]`: the budget line, exactly as the status bar's tooltip shows it. */
export const budgetCommand: CliCommand = {
  name: 'budget',
  usage: 'alfred budget [--json]',
  async run(args, io) {
    const { status, line } = (await openHarness(args.workspace)).budget();
    if (args.json) {
      const dims = Object.fromEntries(Object.entries(status.dimensions).map(([k, d]) => [k, { used: d.used, limit: d.limit, percent: d.percent }]));
      io.out(json({ role: status.role, signal: status.signal, dimensions: dims, costEstimated: status.costEstimated }));
    } else io.out(line);
    return 0;
  },
};
