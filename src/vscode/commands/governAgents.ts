/**
 * Alfred: Govern … / Stop Governing … for every agent of the descriptor table (one pair of commands
 * per hook file: Copilot in VS Code and the Copilot CLI share theirs). Govern writes Alfred's hooks
 * into the agent's hook file (the user's own hooks and settings kept) and, where the agent will not
 * run a project's hooks until the user trusts it, the trust entry in the agent's own user file, in the
 * same confirmed diff; Stop takes only Alfred's hooks out. Per-agent extras (Copilot's usage export)
 * come from agentExtras.ts.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import { GOVERNED_AGENTS, type GovernedAgent } from '../../core/protect/agentTable';
import { inForceContext, trustChange } from '../../core/integrations/health/inForceAll';
import { AGENT_HOOK_FILES } from '../../core/integrations/hooks/agentHooks';
import type { FileChange } from '../config/confirmAndWrite';
import { confirmAndWrite } from '../config/confirmAndWrite';
import { hookFilePath, readIfExists } from '../hooks/hookFiles';
import { ensureLauncher } from '../hooks/launcher';
import { agentExtras } from './agentExtras';
import type { AlfredCommand } from './command';

/** The agents whose commands these are: the first row of each pair of commands. */
const COMMAND_OWNERS: readonly GovernedAgent[] = GOVERNED_AGENTS.filter((a, i, all) => all.findIndex((b) => b.commands.govern === a.commands.govern) === i);

/** The agents sharing an owner's hook file and commands (Copilot: the Copilot CLI too). */
const sharing = (owner: GovernedAgent) => GOVERNED_AGENTS.filter((a) => a.commands.govern === owner.commands.govern);

function governCommand(agent: GovernedAgent): AlfredCommand {
  return {
    id: agent.commands.govern,
    async run({ host, extension }) {
      const harness = host.require();
      ensureLauncher(extension.extensionUri);
      const file = hookFilePath(harness.workspaceFolder, agent.id);
      const files: FileChange[] = [{ path: file, newText: AGENT_HOOK_FILES[agent.id].install(readIfExists(file)) }];
      const extras = agentExtras(agent.id);
      const extra = extras ? await extras.before(extension) : { files: [], reason: undefined };
      if (extra === undefined) return false;
      files.push(...extra.files);
      // The agents that read this file only in a project or folder the user trusts: their entries, in the same diff.
      const ctx = inForceContext(harness.workspaceFolder, os.homedir(), process.env);
      const trusts = sharing(agent).flatMap((a) => {
        const change = trustChange(a.id, ctx);
        return change ? [{ ...change, agent: a }] : [];
      });
      files.push(...trusts.map((t) => ({ path: t.file, newText: t.newText })));
      const written = await confirmAndWrite(host, {
        files,
        reason: extra.reason ?? [`govern ${agent.sessions}`, ...trusts.map((t) => `trust the ${t.agent.id === 'codex' ? 'project' : 'folder'} in ${t.agent.label}`)].join(' and '),
        title: vscode.l10n.t('Govern {0} with Alfred\'s hooks', agent.sessions),
      });
      if (written) (extras?.after ?? defaultDone)(agent, harness.activeRole().role.name, extra.files.length > 0);
      host.refresh();
      return written;
    },
  };
}

function defaultDone(agent: GovernedAgent, role: string): void {
  void vscode.window.showInformationMessage(vscode.l10n.t('{0} in this workspace now run under role {1}. The dashboard\'s Governance section says whether the agent will run the hooks, and the step when it will not.', agent.sessions, role));
}

function stopCommand(agent: GovernedAgent): AlfredCommand {
  return {
    id: agent.commands.stop,
    async run({ host }) {
      const file = hookFilePath(host.require().workspaceFolder, agent.id);
      const text = readIfExists(file);
      const hooks = AGENT_HOOK_FILES[agent.id];
      if (!hooks.installed(text)) {
        void vscode.window.showInformationMessage(vscode.l10n.t('{0} is not governed by Alfred in this workspace.', agent.label));
        return false;
      }
      const written = await confirmAndWrite(host, {
        files: [{ path: file, newText: hooks.remove(text ?? '') }],
        reason: `stop governing ${agent.sessions}`,
        title: vscode.l10n.t('Stop governing {0}', agent.sessions),
      });
      host.refresh();
      return written;
    },
  };
}

/** Every Govern … and Stop Governing … command, in the table's order. */
export const GOVERN_COMMANDS: readonly AlfredCommand[] = COMMAND_OWNERS.flatMap((a) => [governCommand(a), stopCommand(a)]);
