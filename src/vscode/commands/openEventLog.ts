import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { AlfredCommand } from './command';

/** Alfred: Open Event Log — the JSONL log from the state folder, read-only in intent. */
export const openEventLog: AlfredCommand = {
  id: 'alfred.openEventLog',
  async run({ host }) {
    const harness = host.require();
    if (!fs.existsSync(harness.logPath)) {
      void vscode.window.showInformationMessage(vscode.l10n.t('The event log is empty: no governed call yet. It will be at {0}', harness.logPath));
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(harness.logPath));
    await vscode.window.showTextDocument(doc, { preview: true });
    return harness.logPath;
  },
};
