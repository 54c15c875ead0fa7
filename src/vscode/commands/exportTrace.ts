import * as vscode from 'vscode';
import { tracesAsJsonl } from '../../core/usage/traces/log';
import type { AlfredCommand } from './command';

/**
 * Alfred: Export Trace — every trace entry (secrets already redacted when written) into a JSONL
 * file the user picks. Argument (tests): the target Uri or path, which skips the save dialog.
 */
export const exportTrace: AlfredCommand = {
  id: 'alfred.exportTrace',
  async run({ host }, target?: unknown): Promise<{ uri: string; count: number } | undefined> {
    const harness = host.require();
    let uri = target instanceof vscode.Uri ? target : typeof target === 'string' ? vscode.Uri.file(target) : undefined;
    if (!uri) {
      const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
      uri = await vscode.window.showSaveDialog({
        title: vscode.l10n.t('Alfred: Export Trace'),
        defaultUri: vscode.Uri.joinPath(vscode.Uri.file(harness.workspaceFolder), `alfred-trace-${stamp}.jsonl`),
        filters: { [vscode.l10n.t('JSON Lines')]: ['jsonl'] },
      });
      if (!uri) return undefined;
    }
    const { text, count, corrupt } = tracesAsJsonl(harness.stateDir);
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
    const skipped = corrupt.length ? ' ' + vscode.l10n.t('{0} corrupt line(s) skipped.', corrupt.length) : '';
    void vscode.window.showInformationMessage(vscode.l10n.t('Exported {0} trace entries to {1}.', count, uri.fsPath) + skipped);
    return { uri: uri.toString(), count };
  },
};
