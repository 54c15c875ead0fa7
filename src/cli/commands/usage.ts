import { readUsage } from '../../core/models/usageLog';
import { summarizeUsage, type UsageTotals } from '../../core/usage/summary';
import { openHarness } from '../context';
import { json, UsageError } from '../io';
import type { CliCommand } from './command';

function cost(t: UsageTotals): string {
  const parts = [];
  if (t.measuredUsd > 0 || t.estimatedUsd === 0) parts.push(`$${t.measuredUsd.toFixed(4)} measured`);
  if (t.estimatedUsd > 0) parts.push(`$${t.estimatedUsd.toFixed(4)} estimated`);
  const unpriced = t.calls - t.priced;
  return `${parts.join(' + ')}${unpriced > 0 ? ` (${unpriced} of ${t.calls} without a price: n/a, fallback used)` : ''}`;
}

function line(t: UsageTotals): string {
  return `${t.calls} model call${t.calls === 1 ? '' : 's'} · ${t.inputTokens} in (${t.cachedInputTokens} cached), ${t.outputTokens} out · ${cost(t)}`;
}

/** `alfred usage [--since DATE] [--json]`: what the governed agents' model requests cost, per agent session and per model. */
export const usageCommand: CliCommand = {
  name: 'usage',
  usage: 'alfred usage [--since YYYY-MM-DD|ISO] [--json]',
  async run(args, io) {
    const since = args.since;
    if (since !== undefined && Number.isNaN(Date.parse(since.length === 10 ? `${since}T00:00:00Z` : since))) {
      throw new UsageError(`alfred usage: --since needs a date (YYYY-MM-DD) or an ISO time, got "${since}".`);
    }
    const h = await openHarness(args.workspace);
    const summary = summarizeUsage(readUsage(h.stateDir).records, since);
    if (args.json) {
      io.out(json(summary));
      return 0;
    }
    io.out(`All: ${line(summary.total)}`);
    for (const s of summary.sessions) io.out(`  session ${s.session} [${s.models.join(', ')}]: ${line(s)}`);
    for (const m of summary.models) io.out(`  model ${m.model}: ${line(m)}`);
    return 0;
  },
};
