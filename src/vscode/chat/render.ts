import * as vscode from 'vscode';
import type { TurnNotice } from '../../core/turn/composer';
import { formatCharge, formatUsd } from '../../protocol/dashboardFormat';

/** What `@alfred` writes into the chat besides the model's own words. */

const locale = (): string => vscode.env.language;
const fallbackNote = (): string => vscode.l10n.t('fallback price');
/** A spend, as every surface writes it (src/core/base/money.ts). */
const spent = (usd: number, fallback: boolean): string => formatCharge({ usd, fallback }, locale(), fallbackNote());
const limit = (usd: number): string => formatUsd(usd, locale());

export function renderNotice(stream: vscode.ChatResponseStream, notice: TurnNotice, activeRole: string): void {
  switch (notice.kind) {
    case 'failover':
      stream.markdown(`> ${notice.reason === 'failures'
        ? vscode.l10n.t('**Failover** (profile {0}): {1} failed {2} times in a row, so this turn uses {3}.', notice.profile, `\`${notice.from}\``, notice.failures, `\`${notice.to}\``)
        : vscode.l10n.t('**Failover** (profile {0}): {1} is unavailable, so this turn uses {2}.', notice.profile, `\`${notice.from}\``, `\`${notice.to}\``)}\n\n`);
      return;
    case 'failover-stuck':
      stream.markdown(`> ${notice.reason === 'failures'
        ? vscode.l10n.t('**Failover** (profile {0}): {1} failed {2} times in a row, but no other model of the chain is available; staying on it.', notice.profile, `\`${notice.model}\``, notice.failures)
        : vscode.l10n.t('**Failover** (profile {0}): {1} is unavailable and no other model of the chain is available.', notice.profile, `\`${notice.model}\``)}\n\n`);
      return;
    case 'pack': {
      let line = vscode.l10n.t('Pack: {0}', notice.packs.join(', '));
      if (notice.recommendedRole && notice.recommendedRole !== activeRole) {
        line += ` · ${vscode.l10n.t('recommends role {0} (`/role {0}`)', notice.recommendedRole)}`;
      }
      stream.markdown(`*${line}*\n\n`);
      return;
    }
    case 'spend': {
      const s = notice.status;
      const amount = spent(s.usd, s.estimated);
      const text = notice.level === 'critical'
        ? vscode.l10n.t('**Daily spend cap reached**: {0} of {1} today ({2}%). Alfred keeps answering, briefly; blocking belongs to role budgets.', amount, limit(s.capUsd), s.percent)
        : vscode.l10n.t('**Daily spend warning**: {0} of {1} today ({2}%).', amount, limit(s.capUsd), s.percent);
      stream.markdown(`> ${text}\n\n`);
      return;
    }
  }
}

export function describeToolCall(call: vscode.LanguageModelToolCallPart): string {
  const input = call.input as Record<string, unknown>;
  const arg = input?.path ?? input?.query ?? input?.command ?? input?.action;
  return arg === undefined ? call.name : `${call.name}: ${String(arg).slice(0, 80)}`;
}

export interface TurnSummary {
  model: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Some request of the turn had no price: its cost includes the fallback price, and says so. */
  unpriced: boolean;
  budgetLine: string;
  signal: string;
}

/** One line after the answer: model, tokens, cost (naming the fallback price when it was used), and the budget when not OK. */
export function renderFooter(stream: vscode.ChatResponseStream, s: TurnSummary): void {
  const cost = vscode.l10n.t('cost {0}', spent(s.costUsd, s.unpriced));
  let text = `\n\n---\n*${s.model} · ${vscode.l10n.t('{0} tokens in, {1} out', s.inputTokens, s.outputTokens)} · ${cost}*`;
  if (s.signal !== 'OK') text += `\n\n\`${s.budgetLine}\``;
  stream.markdown(text + '\n');
}
