import type { Harness } from '../../core/harness/harness';
import { formatUsd } from '../../core/base/money';
import type { TeamBudgetStatus } from '../../core/ledger/team/budgets';
import { PERIODS, periodStart, type Period } from '../../core/ledger/team/period';
import { openHarness } from '../context';
import { json, UsageError } from '../io';
import type { CliCommand } from './command';

const NO_LEDGER = 'no team ledger: set ALFRED_LEDGER_URL=postgres://user@host:5432/database (docs/team-budgets.md)';

/**
 * The team budgets the active role's calls fall under, for `alfred budget` (undefined: no team ledger
 * configured). A ledger URL Alfred refuses (a literal password, an unset variable) is an error, said.
 */
export async function teamBudgets(h: Harness): Promise<{ budgets: TeamBudgetStatus[] } | { error: string } | undefined> {
  if (h.teamProblem !== undefined) return { error: `the team ledger is misconfigured: ${h.teamProblem}` };
  if (!h.team) return undefined;
  try {
    return { budgets: await h.team.statuses(h.activeRole().role.name) };
  } catch (err) {
    return { error: `the team ledger cannot be reached: ${(err as Error).message}` };
  }
}

const usd = (n: number): string => formatUsd(n, { locale: 'en' });

/** `alfred team [day|week|month] [--json]`: this period's team spend per user, role and model, and the role's team budgets. */
export const teamCommand: CliCommand = {
  name: 'team',
  usage: 'alfred team [day|week|month] [--json]',
  async run(args, io) {
    const period = (args.positionals[0] ?? 'month') as Period;
    if (!PERIODS.includes(period)) throw new UsageError(`alfred team: the period is day, week or month, got "${period}".`);
    const h = await openHarness(args.workspace);
    if (!h.team) {
      // A URL is set but refused (a literal password, an unset variable): that reason, not "set it".
      io.err(`alfred team: ${h.teamProblem !== undefined ? `the team ledger is misconfigured: ${h.teamProblem}` : `${NO_LEDGER}.`}`);
      return 1;
    }
    try {
      const rows = await h.team.spend(period);
      const budgets = await teamBudgets(h);
      const since = periodStart(period, new Date()).toISOString();
      if (args.json) {
        io.out(json({ team: h.team.team, period, since, spend: rows, budgets: budgets && 'budgets' in budgets ? budgets.budgets : [] }));
        return 0;
      }
      io.out(`Team ${h.team.team}, this ${period} (since ${since}): ${rows.reduce((n, r) => n + r.charges, 0)} charges`);
      for (const r of rows) {
        io.out(`  ${r.user} · ${r.role} · ${r.model ?? 'no model'}: ${r.charges} charges, tokens ${r.tokens}, shell ${r.shell}, cost ${usd(r.costUsd)}`);
      }
      if (budgets && 'budgets' in budgets) for (const b of budgets.budgets) io.out(b.line);
      return 0;
    } catch (err) {
      io.err(`alfred team: the team ledger cannot be reached: ${(err as Error).message}`);
      return 1;
    }
  },
};
