import * as vscode from 'vscode';
import { chatSessionConfiguration } from '../../../core/agent/sessionConfiguration';
import { completionsPath } from '../../../core/workflow/completion/record';
import { checkLine } from '../../../core/workflow/completion/report';
import type { CheckResult } from '../../../core/workflow/completion/runner';
import { shortId, type Snapshot } from '../../../core/workflow/completion/snapshot';
import type { VerifyOutcome } from '../../../core/workflow/completion/verify';
import { runVerification } from '../../completion/runVerification';
import { alfredTurns } from '../history';
import { endpointOf } from '../usage';
import type { SlashCommand } from './command';
import { codeBlock, codeSpan } from './markdown';

/** Most of a failing check's tail the chat shows; the record keeps the whole tail. */
const CHAT_TAIL_CHARS = 3000;

/**
 * `/done`: the harness, never the model, runs the workspace's acceptance checks exactly as
 * "Alfred: Verify Completion" does and renders the completion record. Text after `/done` is ignored:
 * a request cannot certify its own work. The record's fingerprint carries the configuration this chat
 * session's latest turn ran under (its model, endpoint, pack, persona and handoff), as its charges do.
 */
export const doneCommand: SlashCommand = {
  name: 'done',
  async run({ host, request, context, stream, token }) {
    const harness = host.require();
    if (request.prompt.trim() !== '') {
      stream.markdown(`${vscode.l10n.t('The text after /done is ignored: only the exit codes of the acceptance checks decide whether the work is done.')}\n\n`);
    }
    const configuration = chatSessionConfiguration(alfredTurns(context.history), endpointOf);
    const outcome = await runVerification(harness, 'chat', token, (p) => {
      if (p.step === 'snapshot') stream.progress(vscode.l10n.t('identifying the snapshot ({0})', p.when));
      if (p.step === 'check') stream.progress(vscode.l10n.t('running {0} ({1}/{2})', p.name, p.index + 1, p.total));
      if (p.step === 'checked') stream.markdown(`- ${checkLine(p.result)}\n`);
    }, configuration);
    host.refresh();
    render(outcome, stream, harness.stateDir);
    return { metadata: { command: 'done', accepted: outcome.accepted, kind: outcome.kind, ...(outcome.kind === 'recorded' ? { record: outcome.record.id } : {}) } };
  },
};

function render(outcome: VerifyOutcome, stream: vscode.ChatResponseStream, stateDir: string): void {
  if (outcome.kind !== 'recorded') {
    stream.markdown(`${outcome.kind === 'no-checks' ? '⚠️' : '❌'} ${outcome.reason}\n\n`);
    if (outcome.kind === 'invalid') {
      stream.anchor(vscode.Uri.file(outcome.checksFile), vscode.l10n.t('Open the checks file'));
    } else {
      // No command writes checks for the user: an untitled editor at the file's place, saved by the user.
      stream.button({
        command: 'vscode.open',
        title: vscode.l10n.t('Create the checks file'),
        arguments: [vscode.Uri.file(outcome.checksFile).with({ scheme: 'untitled' })],
      });
    }
    return;
  }
  const { record } = outcome;
  stream.markdown(`\n### ${record.accepted ? `✅ ${vscode.l10n.t('Accepted')}` : `❌ ${vscode.l10n.t('Not accepted')}`}\n\n${outcome.reason}\n\n`);
  stream.markdown(`${vscode.l10n.t('Snapshot: {0}', snapshotText(record.snapshot.after))}${record.snapshot.stable ? '' : ` — ${vscode.l10n.t('was {0} before the checks', shortId(record.snapshot.before))}`}\n\n`);
  for (const c of record.checks) stream.markdown(`${checkRow(c)}\n`);
  for (const c of record.checks) {
    if (c.status === 'passed' || c.status === 'skipped' || c.outputTail === '') continue;
    const tail = c.outputTail.length > CHAT_TAIL_CHARS ? `[…]\n${c.outputTail.slice(-CHAT_TAIL_CHARS)}` : c.outputTail;
    stream.markdown(`\n${vscode.l10n.t('Output of {0} (last lines):', codeSpan(c.name))}\n\n${codeBlock(tail, 'text')}\n`);
  }
  stream.markdown(`\n${vscode.l10n.t('Record {0}, appended to', codeSpan(record.id))} `);
  stream.anchor(vscode.Uri.file(completionsPath(stateDir)), 'completions.jsonl');
  stream.markdown('\n');
}

function snapshotText(s: Snapshot): string {
  const id = codeSpan(shortId(s));
  if (!s.git) return `${id} ${vscode.l10n.t('(no git)')}`;
  return s.kind === 'commit' ? `${id} ${vscode.l10n.t('(clean git tree)')}` : `${id} ${vscode.l10n.t('({0} changed files)', s.changedCount ?? 0)}`;
}

const MARK: Record<CheckResult['status'], string> = { passed: '✅', failed: '❌', 'timed out': '⏱️', cancelled: '⏹️', error: '❌', skipped: '➖' };

function checkRow(c: CheckResult): string {
  const exit = c.exitCode === null ? vscode.l10n.t('no exit code ({0})', c.signal ?? c.status) : vscode.l10n.t('exit code {0}', c.exitCode);
  const optional = c.required ? '' : ` ${vscode.l10n.t('(optional)')}`;
  return `- ${MARK[c.status]} **${c.name}**${optional}: ${codeSpan(c.run)} · ${exit} · ${(c.durationMs / 1000).toFixed(1)} s`;
}
