import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { draftFromDefinition, emptyDraft, locationOf } from '../../core/rules/roles/draft';
import { parseRoleFile } from '../../core/rules/roles/schema';
import { prompts } from '../prompts';
import { openRoleEditor } from '../webviews/roleEditorPanel';
import { roleOrigin } from '../roleText';
import type { AlfredCommand } from './command';

/**
 * Alfred: Edit Role — the role editor on a role file's own keys. Built-in roles cannot be changed:
 * the user is offered a new role that inherits from it instead.
 */
export const editRole: AlfredCommand = {
  id: 'alfred.editRole',
  async run({ host }, name?: unknown) {
    const harness = host.require();
    const roles = harness.roles().roles;
    let target = typeof name === 'string' ? name : undefined;
    if (!target) {
      const picked = await vscode.window.showQuickPick([...roles.values()].map((r) => ({
        label: r.source === 'builtin' ? `$(lock) ${r.name}` : `$(edit) ${r.name}`, name: r.name, description: roleOrigin(r), detail: r.description,
      })), { title: vscode.l10n.t('Alfred: Edit Role'), placeHolder: vscode.l10n.t('Pick a role to edit (built-in roles can only be inherited from)') });
      target = picked?.name;
    }
    if (!target) return false;
    const role = roles.get(target);
    if (!role) throw new Error(vscode.l10n.t('No role named {0}. Known roles: {1}', target, [...roles.keys()].join(', ')));
    if (role.source === 'builtin') {
      const create = await prompts.confirm(
        vscode.l10n.t('{0} is a built-in role and cannot be changed.', role.name),
        vscode.l10n.t('Create a new role that inherits from {0} and change what you need there.', role.name),
        vscode.l10n.t('Create Role'));
      if (create) openRoleEditor(host, { mode: 'new', form: emptyDraft('project', role.name) });
      return create;
    }
    const parsed = parseRoleFile(fs.readFileSync(role.path, 'utf8'), role.path);
    openRoleEditor(host, { mode: 'edit', form: draftFromDefinition(parsed.definition, locationOf(role.source)), original: role });
    return true;
  },
};
