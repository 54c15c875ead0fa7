import * as vscode from 'vscode';
import { rebuildHistory } from '../history';
import { readChatSettings } from '../chatSettings';
import { packsFor } from '../packSelection';
import type { SlashCommand } from './command';

/** `/packs`: the packs, their triggers and skills, autopilot and pins, and any pack file problems. */
export const packsCommand: SlashCommand = {
  name: 'packs',
  async run({ host, extensionUri, context, stream }) {
    const harness = host.require();
    const { packs, problems } = packsFor(harness, extensionUri);
    const settings = readChatSettings();
    const last = rebuildHistory(context.history).lastPacks;
    stream.markdown(settings.autopilot
      ? vscode.l10n.t('Autopilot is on: the radar picks one pack per prompt.')
      : settings.pinnedPacks.length
        ? vscode.l10n.t('Autopilot is off: the pinned packs are used ({0}).', settings.pinnedPacks.join(', '))
        : vscode.l10n.t('Autopilot is off and no pack is pinned (alfred.pinnedPacks): no pack is used.'));
    if (last?.length) stream.markdown(` ${vscode.l10n.t('Last pack in this chat: {0}.', last.join(', '))}`);
    stream.markdown('\n\n');
    for (const p of packs.values()) {
      const triggers = Object.entries(p.triggersByLanguage).map(([lang, list]) => `${lang}: ${list.slice(0, 8).join(', ')}${list.length > 8 ? ', …' : ''}`).join(' · ');
      const extras = [
        p.source === 'workspace' ? vscode.l10n.t('workspace') : vscode.l10n.t('built-in'),
        p.recommendedRole ? vscode.l10n.t('recommends role {0}', p.recommendedRole) : '',
        p.skills.length ? vscode.l10n.t('skills: {0}', p.skills.map((s) => s.name).join(', ')) : '',
      ].filter(Boolean).join(' · ');
      stream.markdown(`- **${p.name}** — ${p.description}\n  *${extras}*\n  ${triggers}\n`);
    }
    if (problems.length) {
      stream.markdown(`\n**${vscode.l10n.t('Problems')}**\n\n${problems.map((p) => `- \`${p.path}\`${p.key ? ` \`${p.key}\`` : ''}: ${p.message}`).join('\n')}\n`);
    }
  },
};
