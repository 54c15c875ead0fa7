import * as vscode from 'vscode';
import type { HarnessHost } from './harnessHost';

/** How long a new terminal gets to turn shell integration on before Alfred says it can't see it. */
const INTEGRATION_GRACE_MS = 10_000;

/**
 * Every command that finishes in a terminal with shell integration is charged as a shell invocation
 * and logged with its exit code. A terminal cannot be blocked: under `shell_policy = "deny"` the user
 * is warned at once and a PolicyViolation is recorded. Terminals Alfred cannot see are reported once.
 */
export class TerminalObserver implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private blindReported = false;

  constructor(private readonly host: HarnessHost) {
    this.disposables.push(
      vscode.window.onDidEndTerminalShellExecution((e) => void this.onEnd(e)),
      vscode.window.onDidOpenTerminal((t) => this.watchIntegration(t)),
    );
    vscode.window.terminals.forEach((t) => this.watchIntegration(t));
  }

  private async onEnd(e: vscode.TerminalShellExecutionEndEvent): Promise<void> {
    const harness = this.host.current;
    const command = e.execution.commandLine.value.trim();
    if (!harness || !command) return;
    try {
      const result = await harness.observeShell({
        command, exitCode: e.exitCode, cwd: e.execution.cwd?.fsPath, source: `terminal:${e.terminal.name}`,
      });
      this.host.refresh();
      if (result.violation) {
        void vscode.window.showWarningMessage(vscode.l10n.t(
          'Alfred: role {0} does not allow shell commands, but "{1}" ran in terminal "{2}". Terminals cannot be blocked; this was recorded as a policy violation.',
          result.status.role, command, e.terminal.name));
      }
    } catch (err) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Alfred could not record a terminal command: {0}', (err as Error).message));
    }
  }

  private watchIntegration(terminal: vscode.Terminal): void {
    if (terminal.shellIntegration || this.blindReported) return;
    const timer = setTimeout(() => {
      if (terminal.shellIntegration || this.blindReported || terminal.exitStatus) return;
      this.blindReported = true;
      void vscode.window.showInformationMessage(vscode.l10n.t(
        'Alfred cannot see the commands of terminal "{0}": its shell integration is off, so they are not counted. Turn on terminal.integrated.shellIntegration.enabled, or use a bash, zsh, fish or PowerShell terminal.',
        terminal.name));
    }, INTEGRATION_GRACE_MS);
    this.disposables.push({ dispose: () => clearTimeout(timer) });
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
