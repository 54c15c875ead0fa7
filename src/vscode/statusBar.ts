import * as vscode from 'vscode';
import { eventsNewestFirst } from '../core/base/events/read';
import type { AlfredEvent } from '../core/base/events/types';
import { utcDay } from '../core/models/spend';
import { addCharge, noCost, type CostSplit } from '../core/usage/summary';
import { dimensionText, formatCharge, formatCount, formatUsd } from '../protocol/dashboardFormat';
import type { BudgetStatus } from '../core/rules/budget/types';
import type { HarnessHost } from './harnessHost';

/**
 * The cost of the budget session and of today (UTC), measured apart from estimated: read from the
 * log when the session or the day changes (backwards, only as far as both reach), then kept current
 * event by event, so a redraw reads nothing.
 */
class CostSplits {
  private key = '';
  private sessionId: string | undefined;
  private day = '';
  /** Ids of the cost-bearing events counted, so an event read from the log and then passed live counts once. */
  private counted = new Set<string>();
  session: CostSplit = noCost();
  today: CostSplit = noCost();

  refresh(dir: string, sessionId: string | undefined, now = new Date()): void {
    const day = utcDay(now);
    const key = `${dir}\n${sessionId ?? ''}\n${day}`;
    if (key === this.key) return;
    this.key = key;
    this.sessionId = sessionId;
    this.day = day;
    this.counted.clear();
    this.session = noCost();
    this.today = noCost();
    for (const e of eventsNewestFirst(dir)) {
      // Sessions follow one another in the log: past an earlier day and another session, nothing more counts.
      if (e.session !== sessionId && utcDay(e.ts) < day) return;
      this.add(e);
    }
  }

  add(e: AlfredEvent): void {
    if (!this.key || this.counted.has(e.id)) return;
    const inSession = this.sessionId !== undefined && e.session === this.sessionId;
    const session = inSession ? addCharge(this.session, e) : this.session;
    const today = utcDay(e.ts) === this.day ? addCharge(this.today, e) : this.today;
    if (session === this.session && today === this.today) return;
    this.counted.add(e.id);
    this.session = session;
    this.today = today;
  }
}

/** As every surface writes money (src/core/base/money.ts). */
const usd = (n: number): string => formatUsd(n, vscode.env.language);
const spent = (n: number, fallback: boolean): string => formatCharge({ usd: n, fallback }, vscode.env.language, vscode.l10n.t('fallback price'));

/**
 * The budget line above stays exactly as agents read it (docs/roles-and-budgets.md); these lines say the same for a
 * person: the display language's separators, and a limit of 0 as "not allowed" rather than `0/0 (0%)`.
 */
function dimensionLines(status: BudgetStatus): string[] {
  const locale = vscode.env.language;
  const count = (n: number) => formatCount(n, locale);
  const money = (n: number) => formatUsd(n, locale, status.costEstimated);
  const limit = (n: number) => formatUsd(n, locale);
  const words = { notAllowed: vscode.l10n.t('not allowed'), notAllowedUsed: vscode.l10n.t('not allowed · {0} used') };
  const { tokens, shell, cost } = status.dimensions;
  return [
    vscode.l10n.t('Context tokens: {0}', dimensionText(tokens, count, words)),
    vscode.l10n.t('Shell calls: {0}', dimensionText(shell, count, words)),
    vscode.l10n.t('Cost: {0}', dimensionText(cost, money, words, limit)),
  ];
}

/** `$(shield) coder · OK 25%`: the active role and the budget's worst dimension, click to switch role. */
export class BudgetStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('alfred.status', vscode.StatusBarAlignment.Left, 100);
  private readonly subscriptions: vscode.Disposable[];
  private readonly costs = new CostSplits();

  constructor(private readonly host: HarnessHost) {
    this.item.name = vscode.l10n.t('Alfred Budget');
    this.item.command = 'alfred.switchRole';
    this.subscriptions = [host.onEvent((e) => this.costs.add(e)), host.onDidChange(() => this.render())];
    this.render();
    this.item.show();
  }

  render(): void {
    const harness = this.host.current;
    if (!harness) {
      this.item.text = '$(shield) Alfred';
      this.item.tooltip = vscode.l10n.t('Alfred: open a folder to govern its agents.');
      this.item.backgroundColor = undefined;
      return;
    }
    const active = harness.activeRole();
    const { status, line, session } = harness.budget();
    const worst = Math.max(...Object.values(status.dimensions).map((d) => d.percent));
    this.item.text = `$(shield) ${active.role.name} · ${status.signal} ${worst}%`;
    this.item.backgroundColor = status.signal === 'EXHAUSTED'
      ? new vscode.ThemeColor('statusBarItem.errorBackground')
      : status.signal === 'WARNING' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`**Alfred** · ${vscode.l10n.t('role {0}', active.role.name)} (${active.from})\n\n`);
    tooltip.appendCodeblock(line, 'text');
    tooltip.appendMarkdown(`\n\n${dimensionLines(status).join('  \n')}`);
    const costs = this.costLines(harness.stateDir, session, status.dimensions.cost.used);
    if (costs.length) tooltip.appendMarkdown(`\n\n${costs.join('  \n')}`);
    if (active.problem) tooltip.appendMarkdown(`\n\n$(warning) ${active.problem}`);
    tooltip.appendMarkdown(`\n\n${vscode.l10n.t('Click to switch role.')}`);
    this.item.tooltip = tooltip;
    this.item.accessibilityInformation = { label: `Alfred: ${line}`, role: 'button' };
  }

  /** How much of the session's and today's cost the agents reported (measured) and how much Alfred estimated. */
  private costLines(dir: string, session: string | undefined, sessionUsd: number): string[] {
    try {
      this.costs.refresh(dir, session);
    } catch (err) {
      console.error('[alfred] could not read the event log for the cost split:', err);
      return [];
    }
    const lines: string[] = [];
    // The ledger's cost is the session's; the log says how much of it was measured.
    const measured = Math.min(sessionUsd, this.costs.session.measuredUsd);
    if (session !== undefined && sessionUsd > 0) {
      lines.push(vscode.l10n.t('Cost this session {0}: {1} measured (reported by the agents), {2} estimated', spent(sessionUsd, this.costs.session.fallback), usd(measured), formatUsd(sessionUsd - measured, vscode.env.language, this.costs.session.fallback)));
    }
    const today = this.costs.today;
    const todayUsd = today.measuredUsd + today.estimatedUsd;
    if (todayUsd > 0) {
      lines.push(vscode.l10n.t('Cost today {0}: {1} measured (reported by the agents), {2} estimated', spent(todayUsd, today.fallback), usd(today.measuredUsd), formatUsd(today.estimatedUsd, vscode.env.language, today.fallback)));
    }
    if (this.costs.session.fallback || today.fallback) lines.push(vscode.l10n.t('Part of the estimate is the fallback price of a model Alfred has no price for.'));
    return lines;
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.item.dispose();
  }
}
