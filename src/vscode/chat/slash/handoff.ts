import * as vscode from 'vscode';
import { handoffsPath, writeHandoff, type Handoff } from '../../../core/workflow/handoff/handoff';
import { resumeHandoff } from '../../../core/workflow/handoff/resume';
import { handoffSummary } from '../../handoff/summary';
import type { SlashCommand } from './command';
import { codeSpan } from './markdown';

/** Changed files listed in the chat; the handoff itself keeps up to 200. */
const FILES_SHOWN = 30;

/**
 * `/handoff <next step>`: writes the progress handoff as "Alfred: Write Handoff" does (the core needs
 * a next step, so the text is it) and shows what it recorded. `/handoff` alone writes nothing: it
 * shows the newest handoff with each claim checked against the workspace now.
 */
export const handoffCommand: SlashCommand = {
  name: 'handoff',
  async run({ host, request, stream }) {
    const harness = host.require();
    const nextStep = request.prompt.trim();
    if (nextStep === '') {
      const resumed = await resumeHandoff(harness);
      stream.markdown(resumed
        ? `${resumed.text}\n\n`
        : `${vscode.l10n.t('No handoff has been written in this workspace yet.')}\n\n`);
      stream.markdown(`${vscode.l10n.t('To write one, give the next step: {0}', codeSpan('@alfred /handoff <next step>'))}\n\n`);
      stream.button({ command: 'alfred.writeHandoff', title: vscode.l10n.t('Write Handoff') });
      return { metadata: { command: 'handoff', written: false, stale: resumed?.checked.stale ?? null } };
    }
    const handoff = await writeHandoff(harness, { nextStep, by: 'chat' });
    host.refresh();
    stream.markdown(`${handoffSummary(handoff)}\n\n${describe(handoff)}\n`);
    stream.anchor(vscode.Uri.file(handoffsPath(harness.stateDir)), 'handoffs.jsonl');
    return { metadata: { command: 'handoff', written: true, handoff: handoff.id } };
  },
};

function describe(h: Handoff): string {
  const lines = [
    `- ${vscode.l10n.t('Branch: {0}', h.branch ? codeSpan(h.branch) : h.git ? vscode.l10n.t('detached HEAD') : vscode.l10n.t('(no git)'))}${h.head ? ` · HEAD ${codeSpan(h.head.slice(0, 12))}` : ''}`,
    `- ${vscode.l10n.t('Changed files: {0}', h.changedFiles.length)}`,
    ...h.changedFiles.slice(0, FILES_SHOWN).map((f) => `  - ${codeSpan(f)}`),
    ...(h.changedFiles.length > FILES_SHOWN ? [`  - ${vscode.l10n.t('…and {0} more', h.changedFiles.length - FILES_SHOWN)}`] : []),
    `- ${h.lastCommand
      ? vscode.l10n.t('Last command: {0}, {1}', codeSpan(h.lastCommand.command), h.lastCommand.exitCode === null ? vscode.l10n.t('ended {0}', h.lastCommand.state) : vscode.l10n.t('exit code {0}', h.lastCommand.exitCode))
      : vscode.l10n.t('Last command: none recorded')}`,
    `- ${vscode.l10n.t('Pending operations: {0}', h.pendingOperations.length)}`,
    ...h.pendingOperations.map((o) => `  - ${codeSpan(o.id)} ${o.state}: ${o.summary}`),
    `- ${vscode.l10n.t('Next step: {0}', h.nextStep)}`,
  ];
  return lines.join('\n');
}
