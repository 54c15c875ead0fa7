import * as vscode from 'vscode';
import type { AuthorityRequest } from '../core/harness/harness';
import type { AlfredEvent } from '../core/base/events/types';
import type { HarnessHost } from './harnessHost';
import { prompts } from './prompts';

/** Requests older than this when they reach the window are left alone (a window opened much later). */
const FRESH_MS = 10 * 60_000;

/**
 * A role switch or budget reset that raises authority, asked for outside the editor (`alfred role
 * admin` in a terminal, perhaps an agent's), waits for the user here: a modal dialog, which no agent
 * tool can answer. Confirmed, it is applied; declined, it is logged as such.
 */
export class AuthorityRequests implements vscode.Disposable {
  private readonly subscription: vscode.Disposable;
  private readonly asked = new Set<string>();

  constructor(private readonly host: HarnessHost) {
    this.subscription = host.onEvent((e) => {
      if (e.type === 'AuthorityRequested' && !this.asked.has(e.id) && Date.now() - Date.parse(e.ts) < FRESH_MS) void this.ask(e);
    });
  }

  private async ask(e: AlfredEvent): Promise<void> {
    this.asked.add(e.id);
    const request = e as unknown as AuthorityRequest & AlfredEvent;
    const what = request.action === 'role'
      ? vscode.l10n.t('Switch Alfred to role {0}?', String(request.target))
      : vscode.l10n.t('Reset Alfred\'s budget?');
    const detail = vscode.l10n.t('Asked for from outside the editor ({0}). It gives more authority: {1}. Confirm only if you asked for it yourself; an agent may not raise its own authority.',
      request.by, (request.gains ?? []).join('; ') || vscode.l10n.t('a fresh budget'));
    const confirmed = await prompts.confirm(what, detail, request.action === 'role' ? vscode.l10n.t('Switch Role') : vscode.l10n.t('Reset Budget'));
    const harness = this.host.current;
    if (harness) await harness.settleAuthority({ action: request.action, target: request.target, by: request.by, gains: request.gains ?? [] }, confirmed, 'the user in VS Code');
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
