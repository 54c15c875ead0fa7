import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { checkDraft, type DraftContext } from '../../core/rules/roles/draft';
import type { Harness } from '../../core/harness/harness';
import { TOOL_CATEGORIES } from '../../core/rules/vocabulary/types';
import { LIMIT_KEYS } from '../../core/rules/roles/schema';
import type { Role } from '../../core/rules/roles/types';
import {
  CancelCommand, EditorStateNotification, GetEditorStateRequest, ReadyCommand, SaveRoleRequest, ValidateRoleRequest,
  type RoleChoice, type RoleEditorState, type RoleForm, type SaveResult,
} from '../../protocol/roleEditor';
import { ROLE_EDITOR_STRINGS } from '../../protocol/roleEditorStrings';
import { confirmAndWrite } from '../config/confirmAndWrite';
import type { HarnessHost } from '../harnessHost';
import { webviewHtml, webviewOptions } from './html';
import { MessageRouter } from './messageRouter';

export interface RoleEditorInit {
  mode: 'new' | 'edit';
  form: RoleForm;
  /** Edit mode: the role whose file is edited. */
  original?: Role;
}

/** `.alfred/roles` of the workspace and of the user (the first of each kind in the lookup order). */
export function roleFoldersOf(harness: Harness): Record<'project' | 'user', string> {
  const folders = harness.roleFolders();
  return {
    project: folders.find((f) => f.source === 'project')?.dir ?? path.join(harness.workspaceFolder, '.alfred', 'roles'),
    user: folders.find((f) => f.source === 'user')?.dir ?? path.join(os.homedir(), '.alfred', 'roles'),
  };
}

function choice(r: Role): RoleChoice {
  return {
    name: r.name, source: r.source, description: r.description, shellPolicy: r.shellPolicy,
    allowed: r.tools.allowed ? [...r.tools.allowed] : null, denied: [...r.tools.denied],
    limits: Object.fromEntries(Object.entries(LIMIT_KEYS).flatMap(([key, [field]]) => (r.limits[field] === undefined ? [] : [[key, r.limits[field] as number]]))),
  };
}

/**
 * The role editor (Alfred: New Role, Alfred: Edit Role): a form validated as you type with the
 * loader's rules, saved through the configuration-write pipeline, after which the roles reload.
 */
export function openRoleEditor(host: HarnessHost, init: RoleEditorInit): vscode.WebviewPanel {
  const harness = host.require();
  const { extensionUri } = host;
  const title = init.mode === 'new' ? vscode.l10n.t('Alfred: New Role') : vscode.l10n.t('Alfred: Edit Role {0}', init.form.name);
  // The form is UI state in the page: keep the page alive while the confirmation panel covers it.
  const panel = vscode.window.createWebviewPanel('alfred.roleEditor', title, vscode.ViewColumn.Active, { ...webviewOptions(extensionUri), retainContextWhenHidden: true });
  panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'alfred.svg');
  const strings = Object.fromEntries(ROLE_EDITOR_STRINGS.map((s) => [s, vscode.l10n.t(s)]));
  panel.webview.html = webviewHtml(panel.webview, extensionUri, { script: 'role-editor.js', title, strings });

  const original = init.original ? { name: init.original.name, path: init.original.path, source: init.original.source } : undefined;
  const context = (): DraftContext => ({ mode: init.mode, folders: roleFoldersOf(harness), roles: harness.roles().roles, ...(original ? { original } : {}) });
  const state = (): RoleEditorState => {
    const roles = [...harness.roles().roles.values()].filter((r) => r.name !== original?.name);
    const coder = harness.roles().roles.get('coder');
    return {
      mode: init.mode, form: init.form, roles: roles.map(choice), defaults: coder ? { ...choice(coder), description: '', allowed: null, denied: [], shellPolicy: 'track' } : null,
      folders: roleFoldersOf(harness), categories: TOOL_CATEGORIES.map((c) => `@${c}`),
      ...(original ? { originalPath: original.path } : {}),
    };
  };

  const save = async (form: RoleForm): Promise<SaveResult> => {
    const check = checkDraft(form, context());
    if (!check.ok) return { saved: false, message: check.problems.find((p) => p.severity === 'error')?.message };
    const name = form.name.trim();
    try {
      const written = await confirmAndWrite(host, {
        files: [{ path: check.path, newText: check.toml }, ...(check.replaces ? [{ path: check.replaces, newText: null }] : [])],
        reason: init.mode === 'new' ? `new role ${name}` : `edit role ${name}`,
        title: init.mode === 'new' ? vscode.l10n.t('Create role {0}', name) : vscode.l10n.t('Save role {0}', name),
      });
      if (!written) return { saved: false, message: vscode.l10n.t('Not saved: nothing was written.') };
    } catch (err) {
      return { saved: false, message: (err as Error).message };
    }
    void vscode.window.showInformationMessage(vscode.l10n.t('Role {0} saved to {1}.', name, check.path));
    panel.dispose();
    return { saved: true };
  };

  const router: MessageRouter = new MessageRouter(panel.webview)
    .onCommand(ReadyCommand, () => router.notify(EditorStateNotification, state()))
    .onRequest(GetEditorStateRequest, state)
    .onRequest(ValidateRoleRequest, (form) => checkDraft(form, context()))
    .onRequest(SaveRoleRequest, save)
    .onCommand(CancelCommand, () => panel.dispose());
  const messages = panel.webview.onDidReceiveMessage((m) => router.dispatch(m));
  panel.onDidDispose(() => messages.dispose());
  return panel;
}
