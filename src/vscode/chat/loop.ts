import * as vscode from 'vscode';
import type { AgentConfiguration } from '../../core/agent/charge';
import { runEngine, type EngineResult, type LoopDriver, type ModelTurn, type StreamPart } from '../../core/agent/engine';
import type { Harness } from '../../core/harness/harness';
import type { Outcome } from '../../core/models/failover';
import { toolCall } from '../../core/rules/policy/toolCall';
import { CHARGED_BY_CALLER, refusalOf } from '../providers/alfredModelProvider';
import { cancellable, raceCancellation } from './cancel';
import { storedResult, type StopReason, type StoredRound } from './history';
import { overCapStop } from './projection';
import { describeToolCall } from './render';
import { readMcpTrust } from '../../core/rules/policy/mcpAuditFile';
import { offeredTools, runToolCall } from './tools';
import { chargeRequest, countMessages, countText, reportedUsage, type ReportedUsage } from './usage';

/**
 * `@alfred`'s tool-calling loop: the core's one loop (core/agent/engine.ts: ask the model with only
 * the tools the role permits, run the tools it calls through the gate, feed the results back, stop on
 * an answer, a cancellation, an exhausted budget, a request that could pass the cost cap, the round
 * limit or a model failure) driven with VS Code's language model and tools; this adapter streams
 * the text to the chat, keeps the rounds for the history and says why it stopped.
 */

export interface LoopInput {
  harness: Harness;
  /** The turn's pack(s), persona and handoff, kept in each request's fingerprint. */
  configuration?: AgentConfiguration;
  model: vscode.LanguageModelChat;
  /** The whole prompt: persona, history, this turn's context and the user's words. Appended to. */
  messages: vscode.LanguageModelChatMessage[];
  stream: vscode.ChatResponseStream;
  token: vscode.CancellationToken;
  toolInvocationToken: vscode.ChatParticipantToolToken | undefined;
  maxToolRounds: number;
  /** Tools offered besides Alfred's own (patterns: the user's choice and the tools the prompt names). */
  chosenTools?: readonly string[];
  /** Redraws the status bar and dashboard after a charge. */
  refresh(): void;
}

export interface LoopResult {
  rounds: StoredRound[];
  stopped: StopReason;
  /** For the failover chain: a cancel is neutral. */
  outcome: Outcome;
  error?: unknown;
  usage: { requests: number; inputTokens: number; outputTokens: number; costUsd: number; unpriced: boolean };
}

/** Charging must finish even when the user cancels right after the answer. */
const neverCancelled: vscode.CancellationToken = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };

const callPart = (c: ModelTurn['calls'][number]): vscode.LanguageModelToolCallPart => new vscode.LanguageModelToolCallPart(c.callId, c.name, c.input as object);

export async function runLoop(input: LoopInput): Promise<LoopResult> {
  const { harness, model, messages, stream, token } = input;
  const rounds: StoredRound[] = [];
  const usage = { requests: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, unpriced: false };
  const end = (stopped: StopReason, outcome: Outcome, error?: unknown): LoopResult => ({ rounds, stopped, outcome, usage, ...(error === undefined ? {} : { error }) });
  const keepText = (text: string | undefined) => { if (text) rounds.push({ text, calls: [], results: [] }); };
  let reported: ReportedUsage | undefined;

  const driver: LoopDriver<vscode.LanguageModelChatTool, vscode.LanguageModelToolResultPart> = {
    tools: (role) => offeredTools(role, undefined, readMcpTrust(harness.stateDir), input.chosenTools ?? []),
    countInput: async (tools, newToolResults) => {
      const [inputTokens, toolResultTokens] = await raceCancellation(Promise.all([
        countMessages(model, messages, tools, token), countText(model, newToolResults, token),
      ]), token);
      return { inputTokens, toolResultTokens };
    },
    send: async function* (tools): AsyncGenerator<StreamPart> {
      reported = undefined;
      const response = await raceCancellation(model.sendRequest(messages, {
        tools: tools.length ? [...tools] : undefined,
        justification: vscode.l10n.t('@alfred answers your request under the active role\'s rules and budget.'),
        // This loop charges the request itself (tool results already charged taken off): Alfred's own provider must not charge it again.
        modelOptions: { [CHARGED_BY_CALLER]: true },
      }, token), token);
      for await (const part of cancellable(response.stream, token)) {
        if (part instanceof vscode.LanguageModelTextPart) {
          stream.markdown(part.value);
          yield { type: 'text', text: part.value };
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          yield { type: 'toolCall', callId: part.callId, name: part.name, input: part.input };
        } else if (part instanceof vscode.LanguageModelDataPart) {
          reported = reportedUsage(part) ?? reported;
        }
      }
    },
    charge: async (turn, counted, latencyMs) => {
      const outputTokens = await countText(model, [turn.text, ...turn.calls.map((c) => `${c.name} ${JSON.stringify(c.input)}`)], neverCancelled);
      const result = await chargeRequest(harness, model, {
        inputTokens: counted.inputTokens, outputTokens, toolResultTokens: counted.toolResultTokens, ...(reported ? { reported } : {}), latencyMs,
        ...(input.configuration ? { configuration: input.configuration } : {}),
      });
      usage.requests++;
      usage.inputTokens += result.record.inputTokens;
      usage.outputTokens += result.record.outputTokens;
      usage.costUsd += result.costUsd;
      usage.unpriced ||= result.record.estimated;
      input.refresh();
      return { inputTokens: result.record.inputTokens, outputTokens: result.record.outputTokens, costUsd: result.costUsd };
    },
    runTool: async (call) => {
      const part = callPart(call);
      stream.progress(vscode.l10n.t('Running {0}…', describeToolCall(part)));
      const out = await runToolCall({ harness, model, toolInvocationToken: input.toolInvocationToken, token }, part);
      input.refresh();
      if (out.refused) stream.markdown(`\n\n> ⛔ ${vscode.l10n.t('{0} was refused: {1}', `\`${call.name}\``, out.text.split('\n')[0]!)}\n\n`);
      return { text: out.text, refused: out.refused, failed: false, fingerprint: toolCall(call.name, call.input).fingerprint, result: out.part };
    },
    appendRound: (turn, results) => {
      const calls = turn.calls.map(callPart);
      const assistant: Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart> = turn.text ? [new vscode.LanguageModelTextPart(turn.text), ...calls] : calls;
      messages.push(vscode.LanguageModelChatMessage.Assistant(assistant), vscode.LanguageModelChatMessage.User(results.map((r) => r.result)));
      rounds.push({
        text: turn.text, calls: turn.calls.map((c) => ({ callId: c.callId, name: c.name, input: c.input as object })),
        results: results.map((r, i) => storedResult(turn.calls[i]!.callId, r.text)),
      });
    },
  };

  const abort = new AbortController();
  if (token.isCancellationRequested) abort.abort();
  const sub = token.onCancellationRequested(() => abort.abort());
  let result: EngineResult;
  try {
    result = await runEngine({ harness, modelId: model.id, driver, maxToolRounds: input.maxToolRounds, signal: abort.signal });
  } finally {
    sub.dispose();
  }

  switch (result.stopped) {
    case 'done':
      rounds.push({ text: result.lastText ?? '', calls: [], results: [] });
      return end('done', 'success');
    case 'interrupted':
    case 'timeout':
      keepText(result.lastText);
      // Cancelled while tools ran: the model's answers so far were successes.
      return end('cancelled', result.during === 'tools' ? 'success' : 'cancel');
    case 'budget': {
      const budget = harness.budget();
      stream.markdown(`\n\n**${vscode.l10n.t('Stopped: the budget of role {0} is exhausted.', budget.status.role)}** ${vscode.l10n.t('Reset it (Alfred: Reset Budget), switch role (`/role NAME`) or raise the role\'s limit to go on.')}\n\n\`${budget.line}\`\n`);
      // Not the model's doing: answers so far were successes, and no request at all is neutral.
      return end('budget', rounds.length ? 'success' : 'cancel');
    }
    case 'over-cap': {
      const stop = overCapStop(harness, model, result.billedInputTokens);
      if (stop) stream.markdown(stop);
      return end('budget', rounds.length ? 'success' : 'cancel');
    }
    case 'rounds':
      keepText(result.lastText);
      stream.markdown(`\n\n**${vscode.l10n.t('Stopped after {0} tool rounds (the limit set by alfred.maxToolRounds).', input.maxToolRounds)}** ${vscode.l10n.t('Ask me to go on, or raise the limit.')}\n`);
      return end('rounds', 'success');
    case 'refused':
    case 'error': {
      keepText(result.lastText);
      const err = result.error;
      if (token.isCancellationRequested || err instanceof vscode.CancellationError) return end('cancelled', 'cancel');
      // A model's refusal (Alfred's provider marks it) is its answer, not an outage: the chain stays where it
      // is. Other `Blocked` errors (a quota, a rate limit) are failures.
      return refusalOf(err) !== undefined ? end('refused', 'cancel', err) : end('error', 'failure', err);
    }
  }
}
