import * as vscode from 'vscode';
import { redactSecrets, isEnvFile } from '../../core/base/config/redact';
import type { PlannedFile, WritePlan } from '../../core/base/config/types';

export const PLAN_SCHEME = 'alfred-plan';

/**
 * Read-only, in-memory documents (`alfred-plan:`) holding both sides of a planned file, secrets
 * hidden, so VS Code's own diff editor can show a plan before anything is written.
 */
class PlanDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? '';
  }

  /** Opens the native diff editor for one file of a plan. */
  async openDiff(plan: WritePlan, index: number): Promise<void> {
    const file = plan.files[index];
    if (!file) return;
    const [left, right] = (['current', 'planned'] as const).map((side) => this.put(plan, index, side, file));
    await vscode.commands.executeCommand('vscode.diff', left, right,
      vscode.l10n.t('{0} (current ↔ planned, not written yet)', file.label), { preview: true, viewColumn: vscode.ViewColumn.Beside });
  }

  /** Forgets a plan's documents once its panel is closed. */
  forget(plan: WritePlan): void {
    for (const key of [...this.texts.keys()]) if (key.startsWith(`/${plan.id}/`)) this.texts.delete(key);
  }

  private put(plan: WritePlan, index: number, side: 'current' | 'planned', file: PlannedFile): vscode.Uri {
    // The file name comes last so the editor picks the right language.
    const key = `/${plan.id}/${index}/${side}/${file.path.split(/[\\/]/).pop() ?? 'file'}`;
    const text = side === 'current' ? file.oldText : file.newText;
    this.texts.set(key, redactSecrets(text ?? '', { allValues: file.secret || isEnvFile(file.path) }));
    return vscode.Uri.from({ scheme: PLAN_SCHEME, path: key });
  }
}

export const planDocuments = new PlanDocuments();
