import * as vscode from 'vscode';
import { PROJECTED_OUTPUT_TOKENS, projectRequest, type RequestProjection } from '../../core/rules/budget/projection';
import type { Harness } from '../../core/harness/harness';
import { formatUsd } from '../../protocol/dashboardFormat';

/** As every surface writes money (src/core/base/money.ts). */
const usd = (n: number, estimated: boolean): string => formatUsd(n, vscode.env.language, estimated);

/**
 * Whether `@alfred` may send a request to `model` now (core/rules/budget/projection.ts). `inputTokens`:
 * counted, less the tool results the tool path already charged (as chargeRequest bills them).
 */
export function projectionFor(harness: Harness, model: vscode.LanguageModelChat, inputTokens: number, outputTokens = PROJECTED_OUTPUT_TOKENS): RequestProjection & { costEstimated: boolean; priceEstimated: boolean; role: string; line: string } {
  const { status, line } = harness.budget();
  const price = harness.priceOf(model.id);
  const p = projectRequest({ spentUsd: status.dimensions.cost.used, limits: harness.activeRole().role.limits, inputTokens, outputTokens, price });
  return { ...p, costEstimated: status.costEstimated, priceEstimated: price.estimated, role: status.role, line };
}

/** What `@alfred` answers instead of a request that could pass the cost cap: the cost, the budget line, how to go on. Undefined: send it. */
export function overCapStop(harness: Harness, model: vscode.LanguageModelChat, inputTokens: number): string | undefined {
  const p = projectionFor(harness, model, inputTokens);
  if (p.send) return undefined;
  const what = vscode.l10n.t('Not sent: this request could cost up to {0}, and with {1} already spent role {2} would pass its cost limit of {3}.',
    usd(p.projectedUsd, p.priceEstimated), usd(p.spentUsd, p.costEstimated), p.role, usd(p.capUsd, false));
  const next = vscode.l10n.t('To go on: reset the budget (Alfred: Reset Budget), switch role (`/role NAME`) or raise the role\'s cost limit (max_cost_usd).');
  return `\n\n**${what}** ${next}\n\n\`${p.line}\`\n`;
}
