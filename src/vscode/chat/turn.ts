import * as vscode from 'vscode';
import { chosenToolPatterns } from '../../core/turn/chatTools';
import { readChatState } from '../../core/turn/chatState';
import { turnConfiguration } from '../../core/agent/sessionConfiguration';
import { takeSpendNotices } from '../../core/models/usageLog';
import { composeTurn } from '../../core/turn/composer';
import { personaText } from '../../core/turn/persona';
import { memoryBlock, readMemory } from '../../core/workflow/memory/store';
import type { HarnessHost } from '../harnessHost';
import { readChatSettings } from './chatSettings';
import { rebuildHistory, type AlfredTurnMetadata } from './history';
import { rememberTurnConfiguration } from './lastSession';
import { refusalOf } from '../providers/alfredModelProvider';
import { runLoop } from './loop';
import { healAndSelect, recordModelOutcome } from './modelSelection';
import { packsFor, selectPacks } from './packSelection';
import { renderFooter, renderNotice } from './render';
import { endpointOf } from './usage';

/**
 * One `@alfred` turn for a plain prompt: compose it (heal → pack → budget note → persona), run the
 * governed loop, record the model's outcome for the failover chain, and return the rounds as
 * metadata so the next turn continues the conversation.
 */
export async function runTurn(host: HarnessHost, extensionUri: vscode.Uri, request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  const harness = host.require();
  const settings = readChatSettings();
  const history = rebuildHistory(context.history);
  let selected: Awaited<ReturnType<typeof healAndSelect>> | undefined;

  const turn = await composeTurn({
    heal: async () => (selected = await healAndSelect(harness, settings.profiles, request.model)).heal,
    pack: () => selectPacks(harness, packsFor(harness, extensionUri), settings, request.prompt, history.lastPacks),
    budget: () => takeSpendNotices(harness.stateDir, settings.dailyBudgetUsd),
    persona: async () => {
      const name = history.opening ? settings.persona : history.persona ?? 'none';
      return { name, ...(personaText(name) ? { text: personaText(name)! } : {}) };
    },
  });
  if (turn.events.length) await harness.record(turn.events);
  const role = harness.activeRole().role;
  if (selected?.missingProfile) stream.markdown(`> ${vscode.l10n.t('Profile {0} is no longer in the alfred.profiles setting; using the chat\'s model. `/profile` lists the profiles.', selected.missingProfile)}\n\n`);
  for (const notice of turn.notices) renderNotice(stream, notice, role.name);

  const model = selected?.model;
  const base: AlfredTurnMetadata = {
    alfred: 1, rounds: [], packs: turn.pack.packs.map((p) => p.name), packReason: turn.pack.reason, stopped: 'error',
    ...(history.opening && turn.personaText ? { persona: turn.persona.name } : {}),
    ...(selected?.profile ? { profile: selected.profile.name } : {}),
  };
  if (!model) {
    stream.markdown(vscode.l10n.t('No language model is available. Pick a model in the chat, or check the active profile with `/doctor`.'));
    return { metadata: base };
  }

  // The fingerprint's pack, persona and handoff for every request of this turn, and for /done's record.
  const configuration = turnConfiguration(base.packs, Boolean(turn.personaText));
  rememberTurnConfiguration({ model: model.id, endpoint: endpointOf(model), ...configuration });

  const messages: vscode.LanguageModelChatMessage[] = [];
  if (turn.personaText) messages.push(vscode.LanguageModelChatMessage.User(turn.personaText));
  // The project memory (opt-in, .alfred/memory-policy.json) heads the session, as the persona does.
  const memory = readMemory(harness.workspaceFolder, vscode.workspace.isTrusted);
  if (memory) messages.push(vscode.LanguageModelChatMessage.User(memoryBlock(memory)));
  messages.push(...history.messages);
  messages.push(vscode.LanguageModelChatMessage.User([...turn.context, request.prompt].join('\n\n')));

  const result = await runLoop({
    harness, model, messages, stream, token, toolInvocationToken: request.toolInvocationToken,
    maxToolRounds: settings.maxToolRounds, refresh: () => host.refresh(), configuration,
    // Alfred's own tools, plus those the user chose and those this prompt names (#tool references).
    chosenTools: [...chosenToolPatterns(settings.chatTools, readChatState(harness.stateDir).state.tools), ...request.toolReferences.map((r) => r.name)],
  });
  await recordModelOutcome(harness, selected?.profile, selected?.link, result.outcome);
  host.refresh();

  const metadata: AlfredTurnMetadata = {
    ...base, rounds: result.rounds, stopped: result.stopped,
    model: { id: model.id, vendor: model.vendor, family: model.family, name: model.name }, configuration,
  };
  if (result.stopped === 'cancelled') return { metadata };
  if (result.usage.requests > 0) {
    const { line, status } = harness.budget();
    renderFooter(stream, { model: model.id, ...result.usage, budgetLine: line, signal: status.signal });
  }
  if (result.stopped === 'refused') {
    const message = refusalOf(result.error) ?? String(result.error);
    return { metadata, errorDetails: { message: vscode.l10n.t('The model {0} declined: {1}', model.id, message) } };
  }
  if (result.stopped === 'error') {
    const message = (result.error as Error)?.message || String(result.error);
    const counted = selected?.profile ? ` ${vscode.l10n.t('This failure counts against {0} for the failover chain of profile {1}.', model.id, selected.profile.name)}` : '';
    return { metadata, errorDetails: { message: `${vscode.l10n.t('The model {0} failed: {1}', model.id, message)}${counted}` } };
  }
  return { metadata };
}
