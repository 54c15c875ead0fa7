import { openHarness } from '../context';
import { json } from '../io';
import { teamBudgets } from './team';
import type { CliCommand } from './command';

/** `alfred budget [--json]`: the budget line, exactly as the status bar's tooltip shows it, and the team budgets when there is a team ledger. */
export const budgetCommand: CliCommand = {
  name: 'budget',
  usage: 'alfred budget [--json]',
  async run(args, io) {
    const h = await openHarness(args.workspace);
    const { status, line } = h.budget();
    // Only with a team ledger: without one the output stays as it always was.
    const team = await teamBudgets(h);
    if (args.json) {
      const dims = Object.fromEntries(Object.entries(status.dimensions).map(([k, d]) => [k, { used: d.used, limit: d.limit, percent: d.percent }]));
      io.out(json({ role: status.role, signal: status.signal, dimensions: dims, costEstimated: status.costEstimated, ...(team ? { team } : {}) }));
    } else {
      io.out(line);
      if (team) io.out('budgets' in team ? team.budgets.map((b) => b.line).join('\n') || 'No team budget applies to this role.' : `Team budgets: ${team.error}`);
    }
    return 0;
  },
};
