/**
 * What governing one agent asks or says beyond its hook file (governAgents.ts): Copilot's usage
 * export (offered in the same diff: without it Copilot's model spend cannot be measured) and the
 * message after each write.
 */
import * as vscode from 'vscode';
import type { AgentId, GovernedAgent } from '../../core/protect/agentTable';
import type { FileChange } from '../config/confirmAndWrite';
import { userSettingsFile } from '../config/settingsFiles';
import { otlpEndpoint, userSettingsWithExport } from '../usage/copilotOtelSettings';

export interface AgentExtras {
  /** More files for the diff and the log's reason; undefined when the user cancelled. */
  before(extension: vscode.ExtensionContext): Promise<{ files: FileChange[]; reason?: string } | undefined>;
  /** The message once written; `extra`: whether the files of `before` were written too. */
  after(agent: GovernedAgent, role: string, extra: boolean): void;
}

const copilot: AgentExtras = {
  async before(extension) {
    const settingsFile = userSettingsFile(extension);
    const exportEdit = userSettingsWithExport(settingsFile);
    if (!exportEdit) return { files: [] };
    const both = vscode.l10n.t('Hooks and usage export');
    const hooksOnly = vscode.l10n.t('Hooks only');
    const answer = await vscode.window.showInformationMessage(
      vscode.l10n.t('Also let Copilot report its model usage to Alfred, so its real spend counts against the budget?'),
      {
        modal: true,
        detail: vscode.l10n.t('This turns on Copilot\'s OpenTelemetry export to {0} (Alfred, on this machine) in your user settings. Prompts and answers are not exported. Copilot reads this setting when it starts: reload the window afterwards.', otlpEndpoint()),
      },
      both, hooksOnly,
    );
    if (answer === undefined) return undefined;
    // The export settings are left to the file: Copilot reads them only when it starts, and the
    // dashboard reads the file too. Pushing them into this window as well (config.update) made
    // code-server miss them at times, and reload its whole configuration for nothing.
    return answer === both ? { files: [{ path: settingsFile, newText: exportEdit.newText }], reason: 'govern Copilot agent sessions and measure their model usage' } : { files: [] };
  },
  after(_agent, role, exportAdded) {
    const governed = vscode.l10n.t('Copilot agent sessions in this workspace now run under role {0}. Every tool call goes through Alfred.', role);
    if (!exportAdded) {
      void vscode.window.showInformationMessage(governed);
      return;
    }
    const reload = vscode.l10n.t('Reload Window');
    void vscode.window.showInformationMessage(`${governed} ${vscode.l10n.t('Reload the window so Copilot starts exporting its usage.')}`, reload).then((choice) => {
      if (choice === reload) void vscode.commands.executeCommand('workbench.action.reloadWindow');
    });
  },
};

const codex: AgentExtras = {
  before: () => Promise.resolve({ files: [] }),
  after(_agent, role) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Codex sessions in this workspace now run under role {0} once you approve Alfred\'s hooks in Codex: run codex here and review them with /hooks (Codex skips hooks nobody reviewed). The dashboard says when they are in force.', role));
  },
};

const EXTRAS: Partial<Record<AgentId, AgentExtras>> = { copilot, codex };

export function agentExtras(id: AgentId): AgentExtras | undefined {
  return EXTRAS[id];
}
