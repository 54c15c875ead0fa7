import * as vscode from 'vscode';
import { dailySpend } from '../../../core/models/usageLog';
import { formatCharge, formatUsd } from '../../../protocol/dashboardFormat';
import { readChatSettings } from '../chatSettings';
import type { SlashCommand } from './command';

/** `/budget`: the role budget's line and today's spend against the daily cap. */
export const budgetCommand: SlashCommand = {
  name: 'budget',
  async run({ host, stream }) {
    const harness = host.require();
    stream.markdown('```text\n' + harness.budget().line + '\n```\n');
    const cap = readChatSettings().dailyBudgetUsd;
    const spend = dailySpend(harness.stateDir, cap);
    const locale = vscode.env.language;
    const spent = formatCharge({ usd: spend.usd, fallback: spend.estimated }, locale, vscode.l10n.t('fallback price'));
    stream.markdown(spend.level === 'off'
      ? vscode.l10n.t('Spent today by @alfred (UTC): {0}. No daily cap is set (alfred.dailyBudgetUsd).', spent)
      : vscode.l10n.t('Spent today by @alfred (UTC): {0} of the daily cap {1} ({2}%).', spent, formatUsd(spend.capUsd, locale), spend.percent));
  },
};
