import type { UsageTotalsView } from '../../../src/protocol/dashboard';
import { t } from '../../shared/l10n';
import { formatCharge } from '../../../src/protocol/dashboardFormat';
import { count, dollars, pageLocale } from '../../shared/numbers';

/** Money as every surface writes it (src/core/base/money.ts): `$0.0007`, `$0.0564`. */
export const usd = (n: number): string => dollars(n);

/** A spend, `~` and the fallback price named when it was used. */
export const spent = (n: number, fallback: boolean): string => formatCharge({ usd: n, fallback }, pageLocale(), t('fallback price'));

export const tokens = (u: UsageTotalsView): string => t('{0} in ({1} cached), {2} out', count(u.inputTokens), count(u.cachedInputTokens), count(u.outputTokens));

/**
 * Measured and estimated apart, each labelled, as `alfred usage` writes them; what the fallback
 * price priced (a model Alfred has no price for) is marked `~` and named.
 */
export function cost(u: UsageTotalsView): string {
  if (u.calls === 0) return t('no model calls reported');
  const parts = [];
  if (u.measuredUsd > 0 || (u.estimatedUsd === 0 && u.fallbackUsd === 0)) parts.push(t('{0} measured', usd(u.measuredUsd)));
  if (u.estimatedUsd > 0) parts.push(t('{0} estimated', usd(u.estimatedUsd)));
  if (u.fallbackUsd > 0) parts.push(spent(u.fallbackUsd, true));
  return parts.join(' + ');
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
