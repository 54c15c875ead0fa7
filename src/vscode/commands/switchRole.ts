import * as vscode from 'vscode';
import { roleLimitsLine, roleOrigin } from '../roleText';
import type { AlfredCommand } from './command';

/** Alfred: Switch Role — a quick pick of the loaded roles; also called with a role name by the dashboard. */
export const switchRole: AlfredCommand = {
  id: 'alfred.switchRole',
  async run({ host }, name?: unknown) {
    const harness = host.require();
    let target = typeof name === 'string' ? name : undefined;
    if (!target) {
      const active = harness.activeRole().role.name;
      const items = [...harness.roles().roles.values()].map((r) => ({
        label: r.name === active ? `$(check) ${r.name}` : r.name,
        name: r.name,
        description: roleOrigin(r),
        detail: roleLimitsLine(r),
      }));
      const picked = await vscode.window.showQuickPick(items, {
        title: vscode.l10n.t('Alfred: Switch Role'),
        placeHolder: vscode.l10n.t('Active role: {0}. Switching starts a fresh budget.', active),
        matchOnDescription: true,
        matchOnDetail: true,
      });
      target = picked?.name;
    }
    if (!target) return undefined;
    try {
      const role = await harness.switchRole(target, 'user');
      host.refresh();
      return role.name;
    } catch (err) {
      void vscode.window.showErrorMessage((err as Error).message);
      return undefined;
    }
  },
};
