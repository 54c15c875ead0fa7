import * as vscode from 'vscode';
import { linkLabel } from '../../../core/models/profiles';
import { updateChatState } from '../../../core/turn/chatState';
import { readChatSettings } from '../chatSettings';
import { activeProfile, profileHealth } from '../modelSelection';
import { healthText } from './healthText';
import type { SlashCommand } from './command';

const OFF = ['off', 'none'];

/** `/profile` lists the failover profiles; `/profile NAME` activates one; `/profile off` goes back to the chat's model. */
export const profileCommand: SlashCommand = {
  name: 'profile',
  async run({ host, request, stream }) {
    const harness = host.require();
    const settings = readChatSettings();
    const name = request.prompt.trim();
    if (name) {
      const off = OFF.includes(name.toLowerCase());
      if (!off && !settings.profiles.some((p) => p.name === name)) {
        stream.markdown(vscode.l10n.t('There is no profile {0}. Profiles come from the alfred.profiles setting: {1}.', name, settings.profiles.map((p) => p.name).join(', ') || vscode.l10n.t('none')));
        return;
      }
      await updateChatState(harness.stateDir, (state) => {
        if (off) delete state.profile;
        else state.profile = name;
      });
      host.refresh();
    }
    const { profile } = activeProfile(harness, settings.profiles);
    stream.markdown(profile
      ? vscode.l10n.t('Active profile: **{0}**. Failover happens between turns after two failures in a row.', profile.name)
      : vscode.l10n.t('No profile is active: @alfred uses the model selected in the chat.'));
    stream.markdown('\n\n');
    for (const p of settings.profiles) {
      const links = p === profile
        ? profileHealth(harness, p).map((l) => `\`${linkLabel(l.link)}\` (${healthText(l)})`)
        : p.chain.map((l) => `\`${linkLabel(l)}\``);
      stream.markdown(`- **${p.name}**${p === profile ? ` ${vscode.l10n.t('(active)')}` : ''}: ${links.join(' → ')}\n`);
    }
    if (!settings.profiles.length) stream.markdown(vscode.l10n.t('No profiles are defined. Add some to the alfred.profiles setting, e.g. `[{ "name": "main", "chain": [{ "vendor": "copilot", "family": "gpt-4o" }, { "vendor": "copilot", "family": "claude-sonnet-4" }] }]`.'));
    if (settings.profileProblems.length) {
      stream.markdown(`\n\n**${vscode.l10n.t('Problems')}**\n\n${settings.profileProblems.map((p) => `- ${p.path} \`${p.key}\`: ${p.message}`).join('\n')}`);
    }
  },
};
