import * as vscode from 'vscode';
import { roleOrigin } from '../../roleText';
import type { SlashCommand } from './command';

/** `/role` lists the roles; `/role NAME` switches to one (a fresh budget session). */
export const roleCommand: SlashCommand = {
  name: 'role',
  async run({ host, request, stream }) {
    const harness = host.require();
    const name = request.prompt.trim();
    if (name) {
      try {
        await harness.switchRole(name, 'user (@alfred /role)');
        host.refresh();
      } catch (err) {
        stream.markdown((err as Error).message);
        return;
      }
    }
    const { role } = harness.activeRole();
    stream.markdown(`${vscode.l10n.t('Active role: **{0}** ({1}).', role.name, roleOrigin(role))} ${role.description}\n\n`);
    stream.markdown([...harness.roles().roles.values()].map((r) => `- \`${r.name}\` (${roleOrigin(r)}): ${r.description}`).join('\n'));
  },
};
