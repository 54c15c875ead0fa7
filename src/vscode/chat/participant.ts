import * as vscode from 'vscode';
import type { HarnessHost } from '../harnessHost';

/**
 * `@alfred` in the chat: `/role [NAME]` and `/budget` for now. The governed tool-calling loop comes
 * with the turn composer; until then a plain prompt gets the role, the budget and what is available.
 */
export function registerChatParticipant(host: HarnessHost, extensionUri: vscode.Uri): vscode.Disposable {
  const participant = vscode.chat.createChatParticipant('alfred.agent', async (request, _context, stream) => {
    const harness = host.current;
    if (!harness) {
      stream.markdown(vscode.l10n.t('Open a folder first: Alfred governs the agents working in a workspace.'));
      return {};
    }
    if (request.command === 'role') {
      const name = request.prompt.trim();
      if (name) {
        try {
          await harness.switchRole(name, 'user (@alfred /role)');
          host.refresh();
        } catch (err) {
          stream.markdown((err as Error).message);
          return {};
        }
      }
      const { role } = harness.activeRole();
      stream.markdown(`${vscode.l10n.t('Active role: **{0}** ({1}).', role.name, role.source)} ${role.description}\n\n`);
      stream.markdown([...harness.roles().roles.values()].map((r) => `- \`${r.name}\` (${r.source}): ${r.description}`).join('\n'));
      return {};
    }
    const { line } = harness.budget();
    stream.markdown('```text\n' + line + '\n```\n');
    if (request.command !== 'budget') {
      stream.markdown(vscode.l10n.t('Alfred governs the tools `ctx_read`, `ctx_search`, `ctx_tree`, `ctx_edit`, `ctx_shell` and `ctx_session` in agent mode. Try `/role` or `/budget`.'));
    }
    return {};
  });
  participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.png');
  return participant;
}
