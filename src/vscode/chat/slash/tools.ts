import * as vscode from 'vscode';
import { chosenToolPatterns } from '../../../core/turn/chatTools';
import { readChatState, updateChatState } from '../../../core/turn/chatState';
import { readMcpTrust } from '../../../core/rules/policy/mcpAuditFile';
import { readChatSettings } from '../chatSettings';
import { isAlfredTool, offeredTools } from '../tools';
import type { SlashCommand } from './command';

/**
 * `/tools`: which tools `@alfred` offers the model (Alfred's own, and those the user chose), and how
 * many more the role would permit. `/tools add PATTERN…` and `/tools remove PATTERN…` change this
 * workspace's choice (kept in the state folder, beside the failover profile); `/tools reset` goes
 * back to the alfred.chatTools setting alone.
 */
export const toolsCommand: SlashCommand = {
  name: 'tools',
  async run({ host, request, stream }) {
    const harness = host.require();
    const [verb, ...patterns] = request.prompt.trim().split(/\s+/).filter(Boolean);
    if (verb === 'add' || verb === 'remove' || verb === 'reset') {
      if (verb !== 'reset' && patterns.length === 0) {
        stream.markdown(vscode.l10n.t('Name the tools: `/tools {0} PATTERN…` (a name, a glob such as `mcp_github_*`, a category such as `@web`, or `*`).', verb));
        return;
      }
      await updateChatState(harness.stateDir, (state) => {
        const current = state.tools ?? [];
        const next = verb === 'reset' ? [] : verb === 'add' ? [...new Set([...current, ...patterns])] : current.filter((p) => !patterns.includes(p));
        if (next.length) state.tools = next;
        else delete state.tools;
      });
    } else if (verb) {
      stream.markdown(vscode.l10n.t('`/tools` lists the tools offered; `/tools add PATTERN…`, `/tools remove PATTERN…` and `/tools reset` change them.'));
      return;
    }
    const settings = readChatSettings();
    const chosen = chosenToolPatterns(settings.chatTools, readChatState(harness.stateDir).state.tools);
    const role = harness.activeRole().role;
    const trust = readMcpTrust(harness.stateDir);
    const offered = offeredTools(role, undefined, trust, chosen).map((t) => t.name);
    const permitted = offeredTools(role, undefined, trust, ['*']).map((t) => t.name);
    const own = offered.filter(isAlfredTool);
    const others = offered.filter((n) => !isAlfredTool(n));
    stream.markdown(`${vscode.l10n.t('Role **{0}**: @alfred offers the model {1} tools with every request.', role.name, offered.length)}\n\n`);
    stream.markdown(`- ${vscode.l10n.t('Alfred\'s own: {0}', own.map((n) => `\`${n}\``).join(', ') || vscode.l10n.t('none'))}\n`);
    stream.markdown(`- ${vscode.l10n.t('Others you chose ({0}): {1}', chosen.map((p) => `\`${p}\``).join(', ') || vscode.l10n.t('none'), others.map((n) => `\`${n}\``).join(', ') || vscode.l10n.t('none'))}\n`);
    stream.markdown(`\n${vscode.l10n.t('{0} more tools the role permits are not offered: `/tools add PATTERN` (or the alfred.chatTools setting) offers them; a #tool named in a prompt is offered for that turn.', permitted.length - offered.length)}\n`);
  },
};
