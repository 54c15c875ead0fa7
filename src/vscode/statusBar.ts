import * as vscode from 'vscode';
import type { HarnessHost } from './harnessHost';

/** `$(shield) coder · OK 25%`: the active role and the budget's worst dimension, click to switch role. */
export class BudgetStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('alfred.status', vscode.StatusBarAlignment.Left, 100);
  private readonly subscription: vscode.Disposable;

  constructor(private readonly host: HarnessHost) {
    this.item.name = vscode.l10n.t('Alfred Budget');
    this.item.command = 'alfred.switchRole';
    this.subscription = host.onDidChange(() => this.render());
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
    const { status, line } = harness.budget();
    const worst = Math.max(...Object.values(status.dimensions).map((d) => d.percent));
    this.item.text = `$(shield) ${active.role.name} · ${status.signal} ${worst}%`;
    this.item.backgroundColor = status.signal === 'EXHAUSTED'
      ? new vscode.ThemeColor('statusBarItem.errorBackground')
      : status.signal === 'WARNING' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`**Alfred** · ${vscode.l10n.t('role {0}', active.role.name)} (${active.from})\n\n`);
    tooltip.appendCodeblock(line, 'text');
    if (active.problem) tooltip.appendMarkdown(`\n\n$(warning) ${active.problem}`);
    tooltip.appendMarkdown(`\n\n${vscode.l10n.t('Click to switch role.')}`);
    this.item.tooltip = tooltip;
    this.item.accessibilityInformation = { label: `Alfred: ${line}`, role: 'button' };
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
