import type { UsageTotalsView } from '../../../src/protocol/dashboard';
import { t } from '../../shared/l10n';
import { count } from '../../shared/numbers';

/** Per-request costs are small: four decimals, as `alfred usage` prints them. */
export const usd = (n: number): string => `$${n.toFixed(4)}`;

export const tokens = (u: UsageTotalsView): string => t('{0} in ({1} cached), {2} out', count(u.inputTokens), count(u.cachedInputTokens), count(u.outputTokens));

/**
 * Measured and estimated apart, each labelled; requests whose model has no price add no number, only
 * `n/a` and how many they were (a price Alfred does not know is never made up).
 */
export function cost(u: UsageTotalsView): string {
  if (u.calls === 0) return t('no model calls reported');
  if (u.priced === 0) return t('n/a: no price for the model');
  const parts = [t('{0} measured', usd(u.measuredUsd)), t('{0} estimated', usd(u.estimatedUsd))];
  if (u.priced < u.calls) parts.push(t('n/a for {0} of {1} (no price)', u.calls - u.priced, u.calls));
  return parts.join(' · ');
}

/** Who reported a session: the agent's name where the source says it. */
export function sourceLabel(source: string): string {
  switch (source) {
    case 'claude-transcript': return 'Claude Code';
    case 'gemini-transcript': return 'Gemini CLI';
    case 'copilot-otel': return 'Copilot';
    case 'copilot-cli-otel': return 'Copilot CLI';
    case 'chat': return '@alfred';
    case 'doctor': return '@alfred /doctor';
    case 'alfred': return 'Alfred';
    case 'tool': return t('Alfred\'s tools');
    default: return source.startsWith('hook:') ? t('an agent\'s hooks') : source;
  }
}
