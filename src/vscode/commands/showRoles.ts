import * as vscode from 'vscode';
import { roleOrigin, roleToolsLine } from '../roleText';
import type { AlfredCommand } from './command';

/** Alfred: Show Roles — every role with its source, and every problem with its file and key. */
export const showRoles: AlfredCommand = {
  id: 'alfred.showRoles',
  async run({ host }) {
    const harness = host.require();
    const { roles, problems } = harness.roles();
    const active = harness.activeRole().role.name;
    type Item = vscode.QuickPickItem & { file?: string };
    // The roles come first with no heading (the title names them); a separator only marks where the problems start.
    const items: Item[] = [
      ...[...roles.values()].map((r) => ({
        label: `${r.name === active ? '$(check)' : '$(shield)'} ${r.name}`,
        description: roleOrigin(r),
        detail: roleToolsLine(r),
        file: r.path,
      })),
    ];
    if (problems.length) {
      items.push({ label: vscode.l10n.t('Problems'), kind: vscode.QuickPickItemKind.Separator });
      items.push(...problems.map((p) => ({
        label: `${p.severity === 'error' ? '$(error)' : '$(warning)'} ${p.message}`,
        description: p.key,
        detail: p.path,
        file: p.path,
      })));
    }
    const picked = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Alfred: Roles ({0} loaded, {1} problems)', roles.size, problems.length),
      placeHolder: vscode.l10n.t('Pick a role or a problem to open its file'),
      matchOnDescription: true,
      matchOnDetail: true,
    });
    if (picked?.file) await vscode.window.showTextDocument(vscode.Uri.file(picked.file));
    return { roles: [...roles.keys()], problems };
  },
};
