import * as vscode from 'vscode';
import { CHARGED_BY_CALLER, refusalOf } from '../providers/alfredModelProvider';
import type { Harness } from '../../core/harness';
import type { Outcome } from '../../core/models/failover';
import { cancellable, raceCancellation } from './cancel';
import { storedResult, type StopReason, type StoredRound } from './history';
import { overCapStop } from './projection';
import { describeToolCall } from './render';
import { offeredTools, runToolCall } from './tools';
import { chargeRequest, countMessages, countText, reportedUsage, type ReportedUsage } from './usage';

/**
 * The tool-calling loop `@alfred` owns end to end: ask the model (with only the tools the role
 * permits), stream its text, run the tools it calls through the gate, feed the results back, and
 * stop on an answer, a cancellation, an exhausted budget or a request that could pass the cost cap,
 * the round limit or a model failure.
 */

export interface LoopInput {
  harness: Harness;
  /** The turn's pack(s) and persona, kept in each request's fingerprint. */
  configuration?: { pack: string; persona: boolean };
  model: vscode.LanguageModelChat;
  /** The whole prompt: persona, history, this turn's context and the user's words. Appended to. */
  messages: vscode.LanguageModelChatMessage[];
  stream: vscode.ChatResponseStream;
  token: vscode.CancellationToken;
  toolInvocationToken: vscode.ChatParticipantToolToken | undefined;
  maxToolRounds: number;
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

const isCancellation = (err: unknown, token: vscode.CancellationToken): boolean =>
  token.isCancellationRequested || err instanceof vscode.CancellationError;

export async function runLoop(input: LoopInput): Promise<LoopResult> {
  const { harness, model, messages, stream, token } = input;
  const rounds: StoredRound[] = [];
  const usage = { requests: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, unpriced: false };
  const end = (stopped: StopReason, outcome: Outcome, error?: unknown): LoopResult => ({ rounds, stopped, outcome, usage, ...(error === undefined ? {} : { error }) });
  let toolRounds = 0;
  let newToolResults: string[] = [];

  for (;;) {
    if (token.isCancellationRequested) return end('cancelled', 'cancel');
    const budget = harness.budget();
    if (budget.status.signal === 'EXHAUSTED') {
      stream.markdown(`\n\n**${vscode.l10n.t('Stopped: the budget of role {0} is exhausted.', budget.status.role)}** ${vscode.l10n.t('Reset it (Alfred: Reset Budget), switch role (`/role NAME`) or raise the role\'s limit to go on.')}\n\n\`${budget.line}\`\n`);
      // Not the model's doing: answers so far were successes, and no request at all is neutral.
      return end('budget', rounds.length ? 'success' : 'cancel');
    }

    const tools = offeredTools(harness.activeRole().role);
    let text = '';
    const calls: vscode.LanguageModelToolCallPart[] = [];
    let reported: ReportedUsage | undefined;
    let inputTokens = 0;
    let toolResultTokens = 0;
    const started = Date.now();
    try {
      [inputTokens, toolResultTokens] = await raceCancellation(Promise.all([
        countMessages(model, messages, tools, token), countText(model, newToolResults, token),
      ]), token);
      // Never a request whose projected cost could pass the cost cap: at most one over it, ever.
      const stop = overCapStop(harness, model, Math.max(0, inputTokens - toolResultTokens));
      if (stop) {
        stream.markdown(stop);
        return end('budget', rounds.length ? 'success' : 'cancel');
      }
      const response = await raceCancellation(model.sendRequest(messages, {
        tools: tools.length ? tools : undefined,
        justification: vscode.l10n.t('@alfred answers your request under the active role\'s rules and budget.'),
        // This loop charges the request itself (tool results already charged taken off): Alfred's own provider must not charge it again.
        modelOptions: { [CHARGED_BY_CALLER]: true },
      }, token), token);
      for await (const part of cancellable(response.stream, token)) {
        if (part instanceof vscode.LanguageModelTextPart) {
          text += part.value;
          stream.markdown(part.value);
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          calls.push(part);
        } else if (part instanceof vscode.LanguageModelDataPart) {
          reported = reportedUsage(part) ?? reported;
        }
      }
    } catch (err) {
      // Output already streamed was generated (and billed by the provider), so it is charged, whether
      // the turn was cancelled or the model failed; a request that produced nothing is not.
      if (text || calls.length) await charge(input, { text, calls, reported, inputTokens, toolResultTokens, started }, usage);
      if (text) rounds.push({ text, calls: [], results: [] });
      if (isCancellation(err, token)) return end('cancelled', 'cancel');
      // A model's refusal (Alfred's provider marks it) is its answer, not an outage: the chain stays where it
      // is. Other `Blocked` errors (a quota, a rate limit) are failures.
      return refusalOf(err) !== undefined ? end('refused', 'cancel', err) : end('error', 'failure', err);
    }
    newToolResults = [];
    await charge(input, { text, calls, reported, inputTokens, toolResultTokens, started }, usage);

    if (calls.length === 0) {
      rounds.push({ text, calls: [], results: [] });
      return end('done', 'success');
    }
    if (toolRounds >= input.maxToolRounds) {
      if (text) rounds.push({ text, calls: [], results: [] });
      stream.markdown(`\n\n**${vscode.l10n.t('Stopped after {0} tool rounds (the limit set by alfred.maxToolRounds).', input.maxToolRounds)}** ${vscode.l10n.t('Ask me to go on, or raise the limit.')}\n`);
      return end('rounds', 'success');
    }
    toolRounds++;

    const round: StoredRound = { text, calls: calls.map((c) => ({ callId: c.callId, name: c.name, input: c.input })), results: [] };
    const parts: vscode.LanguageModelToolResultPart[] = [];
    try {
      for (const call of calls) {
        stream.progress(vscode.l10n.t('Running {0}…', describeToolCall(call)));
        const out = await runToolCall({ harness, model, toolInvocationToken: input.toolInvocationToken, token }, call);
        input.refresh();
        if (out.refused) stream.markdown(`\n\n> ⛔ ${vscode.l10n.t('{0} was refused: {1}', `\`${call.name}\``, out.text.split('\n')[0]!)}\n\n`);
        parts.push(out.part);
        round.results.push(storedResult(call.callId, out.text));
        newToolResults.push(out.text);
      }
    } catch (err) {
      if (!isCancellation(err, token)) throw err;
      if (text) rounds.push({ text, calls: [], results: [] });
      return end('cancelled', 'success');
    }
    const assistant: Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart> = text ? [new vscode.LanguageModelTextPart(text), ...calls] : [...calls];
    messages.push(vscode.LanguageModelChatMessage.Assistant(assistant), vscode.LanguageModelChatMessage.User(parts));
    rounds.push(round);
  }
}

interface Received {
  text: string;
  calls: vscode.LanguageModelToolCallPart[];
  reported: ReportedUsage | undefined;
  inputTokens: number;
  toolResultTokens: number;
  started: number;
}

/** Charging must finish even when the user cancels right after the answer. */
const neverCancelled: vscode.CancellationToken = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };

async function charge(input: LoopInput, r: Received, usage: LoopResult['usage']): Promise<void> {
  const outputTokens = await countText(input.model, [r.text, ...r.calls.map((c) => `${c.name} ${JSON.stringify(c.input)}`)], neverCancelled);
  const result = await chargeRequest(input.harness, input.model, {
    inputTokens: r.inputTokens, outputTokens, toolResultTokens: r.toolResultTokens, ...(r.reported ? { reported: r.reported } : {}), latencyMs: Date.now() - r.started,
    ...(input.configuration ? { configuration: input.configuration } : {}),
  });
  usage.requests++;
  usage.inputTokens += result.record.inputTokens;
  usage.outputTokens += result.record.outputTokens;
  usage.costUsd += result.costUsd;
  usage.unpriced ||= result.record.estimated;
  input.refresh();
}

