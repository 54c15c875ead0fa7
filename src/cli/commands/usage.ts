import { formatCharge, formatUsd } from '../../core/base/money';
import { readUsage } from '../../core/models/usageLog';
import { sinceTime, summarizeUsage, type ToolCounts, type UsageTotals } from '../../core/usage/summary';
import { openHarness } from '../context';
import { json, UsageError } from '../io';
import type { CliCommand } from './command';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The cost, measured apart from estimated, in the one money format (core/base/money.ts); what the
 * fallback price priced (a model without a price) is marked `~` and named.
 */
export function usageCost(t: UsageTotals): string {
  const parts = [];
  if (t.measuredUsd > 0 || (t.estimatedUsd === 0 && t.fallbackUsd === 0)) parts.push(`${formatUsd(t.measuredUsd, { locale: 'en' })} measured`);
  if (t.estimatedUsd > 0) parts.push(`${formatUsd(t.estimatedUsd, { locale: 'en' })} estimated`);
  if (t.fallbackUsd > 0) parts.push(formatCharge({ usd: t.fallbackUsd, fallback: true }, 'en'));
  return parts.join(' + ');
}

function models(t: UsageTotals): string {
  if (t.calls === 0) return 'no model calls reported';
  return `${plural(t.calls, 'model call')} · ${t.inputTokens} in (${t.cachedInputTokens} cached), ${t.outputTokens} out · ${usageCost(t)}`;
}

function tools(t: ToolCounts): string {
  return `${plural(t.toolCalls, 'tool call')}${t.refused > 0 ? ` (${t.refused} refused)` : ''}, ${plural(t.shellCalls, 'shell call')}`;
}

/** `alfred usage [--since DATE] [--json]`: what the governed agents' model requests cost and the tool calls they made, per agent session and per model. */
export const usageCommand: CliCommand = {
  name: 'usage',
  usage: 'alfred usage [--since YYYY-MM-DD|ISO] [--json]',
  async run(args, io) {
    const since = args.since;
    if (since !== undefined && Number.isNaN(sinceTime(since))) {
      throw new UsageError(`alfred usage: --since needs a date (YYYY-MM-DD) or an ISO time, got "${since}".`);
    }
    const h = await openHarness(args.workspace);
    const summary = summarizeUsage(readUsage(h.stateDir).records, since, h.events({ types: ['ToolCall'] }).events);
    if (args.json) {
      io.out(json(summary));
      return 0;
    }
    io.out(`All: ${models(summary.total)} · ${tools(summary.total)}`);
    for (const s of summary.sessions) io.out(`  session ${s.session} (${s.source})${s.models.length ? ` [${s.models.join(', ')}]` : ''}: ${models(s)} · ${tools(s)}`);
    for (const m of summary.models) io.out(`  model ${m.model}: ${models(m)}`);
    return 0;
  },
};
