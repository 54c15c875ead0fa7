import * as path from 'node:path';
import * as vscode from 'vscode';
import { AGENTS_DIR, agentFile, agentFileName, type AvailableTool } from '../../core/integrations/agents/agentFile';
import { isCopilotHookFileGoverning } from '../../core/integrations/hooks/install';
import type { ModelLink } from '../../core/models/profiles';
import type { Role } from '../../core/rules/roles/types';
import { readChatSettings } from '../chat/chatSettings';
import { activeProfile, resolveLink } from '../chat/modelSelection';
import { confirmAndWrite } from '../config/confirmAndWrite';
import { hookFilePath, readIfExists } from '../hooks/hookFiles';
import { roleOrigin } from '../roleText';
import type { AlfredCommand } from './command';

/**
 * Alfred: Export Roles as Copilot Agents — writes `.github/agents/alfred-ROLE.agent.md` for the roles
 * picked (or named: `executeCommand('alfred.exportAgents', ['reviewer'])`), in one confirmed write.
 * Resolves to the paths written; none when cancelled or unchanged.
 */
export const exportAgents: AlfredCommand = {
  id: 'alfred.exportAgents',
  async run({ host, extension }, names?: unknown) {
    const harness = host.require();
    const { roles } = harness.roles();
    const chosen = names === undefined ? await pickRoles(roles, harness.activeRole().role.name) : namedRoles(roles, names);
    if (!chosen || chosen.length === 0) return [];

    const tools = availableTools(extension);
    const { profile } = activeProfile(harness, readChatSettings().profiles);
    const models = profile ? await Promise.all(profile.chain.map(qualifiedModelName)) : [];
    const files = chosen.map((role) => ({
      path: path.join(harness.workspaceFolder, AGENTS_DIR, agentFileName(role.name)),
      newText: agentFile({ role, tools, models, ...(profile ? { profile: profile.name } : {}) }),
    }));
    const written = await confirmAndWrite(host, {
      files,
      reason: 'export roles as Copilot agents',
      title: vscode.l10n.t('Export roles as Copilot agents: {0}', chosen.map((r) => r.name).join(', ')),
    });
    if (!written) return [];
    void tellWhatNext(harness.workspaceFolder, chosen.length);
    return files.map((f) => f.path);
  },
};

async function pickRoles(roles: ReadonlyMap<string, Role>, active: string): Promise<Role[] | undefined> {
  const items = [...roles.values()].map((r) => ({
    label: r.name, description: roleOrigin(r), detail: r.description, picked: r.name === active, role: r,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Alfred: Export Roles as Copilot Agents'),
    placeHolder: vscode.l10n.t('Roles to write as custom agents in .github/agents/'),
    canPickMany: true,
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return picked?.map((p) => p.role);
}

/** Role names given by a caller (a string or a list); an unknown name is an error that names it. */
function namedRoles(roles: ReadonlyMap<string, Role>, names: unknown): Role[] {
  const list = Array.isArray(names) ? names : [names];
  return list.map((n) => {
    const role = typeof n === 'string' ? roles.get(n) : undefined;
    if (!role) throw new Error(vscode.l10n.t('There is no role {0}. Roles: {1}.', String(n), [...roles.keys()].join(', ')));
    return role;
  });
}

/** The tools that exist now, plus Alfred's own (listed by its manifest, in case they are not registered yet). */
function availableTools(extension: vscode.ExtensionContext): AvailableTool[] {
  const tools: AvailableTool[] = vscode.lm.tools.map((t) => {
    // `fullReferenceName` is what agent files name a tool by; VS Code 1.139 has it, its typings do not yet.
    const ref = (t as { fullReferenceName?: unknown }).fullReferenceName;
    return typeof ref === 'string' && ref ? { name: t.name, referenceName: ref } : { name: t.name };
  });
  const contributed = (extension.extension.packageJSON as { contributes?: { languageModelTools?: Array<{ name: string; toolReferenceName?: string }> } })
    .contributes?.languageModelTools ?? [];
  for (const c of contributed) {
    if (c.toolReferenceName && !tools.some((t) => t.name === c.name)) {
      tools.push({ name: c.name, referenceName: `${extension.extension.id}/${c.toolReferenceName}` });
    }
  }
  return tools;
}

/** `Name (vendor)`, as agent files name models; a link that does not resolve now keeps its own label. */
async function qualifiedModelName(link: ModelLink): Promise<string> {
  const model = await resolveLink(link);
  if (model) return `${model.name} (${model.vendor})`;
  const label = link.id ?? link.family ?? '*';
  return link.vendor ? `${label} (${link.vendor})` : label;
}

/** The agent files list tools; only the hooks enforce the rules: say so when they are not installed. */
async function tellWhatNext(workspaceFolder: string, count: number): Promise<void> {
  if (isCopilotHookFileGoverning(readIfExists(hookFilePath(workspaceFolder, 'copilot')))) {
    void vscode.window.showInformationMessage(vscode.l10n.t('{0} custom agent file(s) written to .github/agents/. Pick one in the chat\'s agent list.', count));
    return;
  }
  const govern = vscode.l10n.t('Govern Copilot');
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t('{0} custom agent file(s) written to .github/agents/. Copilot is not governed by Alfred in this workspace yet: without its hooks, the agents\' rules and budgets are not enforced.', count),
    govern);
  if (choice === govern) await vscode.commands.executeCommand('alfred.governCopilot');
}
