import * as vscode from 'vscode';
import { backupsDir } from '../../core/base/config/backups';
import type { WritePlan } from '../../core/base/config/types';
import {
  CancelCommand, ConfirmCommand, ConfirmStateNotification, GetConfirmStateRequest, OpenDiffCommand, ReadyCommand, type ConfirmState,
} from '../../protocol/confirm';
import { CONFIRM_STRINGS } from '../../protocol/confirmStrings';
import { planDocuments } from '../config/planDocuments';
import { webviewHtml, webviewOptions } from './html';
import { MessageRouter } from './messageRouter';

export function confirmState(plan: WritePlan, stateDir: string): ConfirmState {
  return {
    title: plan.title,
    reason: plan.reason,
    backupDir: backupsDir(stateDir),
    files: plan.files.map((f) => ({
      label: f.label, path: f.path, change: f.change, diff: f.diff, added: f.added, removed: f.removed, secret: f.secret,
    })),
  };
}

/**
 * The confirmation panel of a configuration write: each file's diff (secrets as `***`), Confirm,
 * Cancel, and "Open in diff editor". Resolves true only on Confirm; closing the panel is a Cancel.
 */
export function reviewInPanel(extensionUri: vscode.Uri, plan: WritePlan, stateDir: string): Promise<boolean> {
  const panel = vscode.window.createWebviewPanel('alfred.confirm', vscode.l10n.t('Alfred: Review Changes'),
    { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, webviewOptions(extensionUri));
  panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'alfred.svg');
  const strings = Object.fromEntries(CONFIRM_STRINGS.map((s) => [s, vscode.l10n.t(s)]));
  panel.webview.html = webviewHtml(panel.webview, extensionUri, { script: 'confirm.js', title: vscode.l10n.t('Alfred: Review Changes'), strings });

  return new Promise<boolean>((resolve) => {
    let answered = false;
    const answer = (confirmed: boolean) => {
      if (answered) return;
      answered = true;
      resolve(confirmed);
      panel.dispose();
    };
    const state = confirmState(plan, stateDir);
    const router: MessageRouter = new MessageRouter(panel.webview)
      .onCommand(ReadyCommand, () => router.notify(ConfirmStateNotification, state))
      .onRequest(GetConfirmStateRequest, () => state)
      .onCommand(ConfirmCommand, () => answer(true))
      .onCommand(CancelCommand, () => answer(false))
      .onCommand(OpenDiffCommand, ({ index }) => planDocuments.openDiff(plan, index));
    const messages = panel.webview.onDidReceiveMessage((m) => router.dispatch(m));
    panel.onDidDispose(() => {
      messages.dispose();
      planDocuments.forget(plan);
      answer(false);
    });
  });
}

