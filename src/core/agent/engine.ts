/**
 * The one tool-calling loop, whatever the model's API: `@alfred` drives it with VS Code's language
 * models and tools (src/vscode/chat/loop.ts), trials with Alfred's own providers and core tools
 * (loop.ts). The order and the stops are decided here: a stopped caller, an exhausted budget, the
 * token limit, a request that could pass the cost cap (never sent), the model's answer, the round
 * limit, the time limit, a model failure. The driver does the I/O: counting, sending, charging,
 * running a tool, keeping the conversation.
 */
import { PROJECTED_OUTPUT_TOKENS, projectRequest } from '../rules/budget/projection';
import type { Harness } from '../harness/harness';
import type { RefusalCode } from '../rules/vocabulary/types';
import type { ReportedTokens } from '../models/providers/types';
import type { Role } from '../rules/roles/types';

export type LoopStop =
  | 'done'         // the model answered without calling a tool
  | 'budget'       // the role's budget is EXHAUSTED, or the loop's token limit is reached
  | 'over-cap'     // the next request could take the cost past the role's cap: not sent
  | 'rounds'       // the tool-round limit
  | 'timeout'      // the time limit
  | 'interrupted'  // the caller's signal
  | 'refused'      // the provider declined (safety, content policy)
  | 'error';       // the model failed (HTTP, connection, protocol)

export interface ModelCall {
  callId: string;
  name: string;
  input: unknown;
}

/** What a model's response streams, in the loop's terms. */
export type StreamPart =
  | { type: 'text'; text: string }
  | { type: 'toolCall'; callId: string; name: string; input: unknown }
  | { type: 'usage'; usage: ReportedTokens }
  | { type: 'refusal'; message: string };

export interface ToolOutcome<R> {
  /** What the model reads (token-counted for the next request). */
  text: string;
  refused: boolean;
  code?: RefusalCode;
  failed: boolean;
  /** Name and canonical input: equal for calls that mean the same. */
  fingerprint: string;
  /** The driver's own form of the result, handed back to appendRound. */
  result: R;
}

export interface LoopToolCall {
  name: string;
  input: unknown;
  fingerprint: string;
  refused: boolean;
  code?: RefusalCode;
  failed: boolean;
}

export interface ModelTurn {
  text: string;
  calls: ModelCall[];
  reported?: ReportedTokens;
}

export interface LoopDriver<T, R> {
  /** The tools offered to the model: only those the role permits. */
  tools(role: Role): T[];
  /** The request's input tokens, and those of the tool results it sends for the first time. */
  countInput(tools: readonly T[], newToolResults: readonly string[], signal: AbortSignal): Promise<{ inputTokens: number; toolResultTokens: number }>;
  send(tools: readonly T[], signal: AbortSignal): AsyncIterable<StreamPart>;
  /** Charges one request (also one cut short: its output was generated); returns what was counted. */
  charge(turn: ModelTurn, counted: { inputTokens: number; toolResultTokens: number }, latencyMs: number): Promise<{ inputTokens: number; outputTokens: number; costUsd: number }>;
  /** Runs one call through the gate; throws when the signal is aborted (the round is cut off there). */
  runTool(call: ModelCall, signal: AbortSignal): Promise<ToolOutcome<R>>;
  /** Keeps the round (the model's text and calls, the results) in the conversation. */
  appendRound(turn: ModelTurn, results: ReadonlyArray<ToolOutcome<R>>): void;
}

/** What bounds a loop and what it reports as it runs, whichever driver runs it (runAgentLoop passes them on as given). */
export interface LoopOptions {
  harness: Harness;
  maxToolRounds: number;
  /** Stops the loop as `interrupted`. */
  signal?: AbortSignal;
  /** Wall-clock time at which the loop stops as `timeout` (epoch ms). */
  deadline?: number;
  /** Model tokens (input + output) the loop may use before it stops as `budget`. */
  tokenLimit?: number;
  /** Usage already spent by earlier sessions of the same work (a resumed trial), counted against tokenLimit. */
  spentTokens?: number;
  onToolCall?(call: LoopToolCall): void;
  /** After each round of tool calls (the handoff is written here when it is on). */
  onRound?(): Promise<void>;
}

export interface EngineInput<T, R> extends LoopOptions {
  /** Priced by this id for the cost-cap projection. */
  modelId: string;
  driver: LoopDriver<T, R>;
}

export interface EngineResult {
  stopped: LoopStop;
  /** Where an interruption or timeout found the loop. */
  during?: 'request' | 'tools';
  error?: unknown;
  /** The text of the last response, even one cut short (undefined: none was received). */
  lastText?: string;
  /** Input tokens of the last request counted, less the tool results in it (as the cost cap bills them). */
  billedInputTokens: number;
  toolRounds: number;
  toolCalls: LoopToolCall[];
  usage: { requests: number; inputTokens: number; outputTokens: number; costUsd: number };
}

export async function runEngine<T, R>(input: EngineInput<T, R>): Promise<EngineResult> {
  const { harness, driver } = input;
  const usage = { requests: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  const toolCalls: LoopToolCall[] = [];
  let toolRounds = 0;
  let billedInputTokens = 0;
  let newToolResults: string[] = [];
  const abort = new AbortController();
  let why: 'timeout' | 'interrupted' | undefined;
  const stopAs = (reason: 'timeout' | 'interrupted') => { why ??= reason; abort.abort(); };
  const onAbort = () => stopAs('interrupted');
  if (input.signal?.aborted) stopAs('interrupted');
  input.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = input.deadline === undefined ? undefined : setTimeout(() => stopAs('timeout'), Math.max(0, input.deadline - Date.now()));
  const end = (stopped: LoopStop, extra: Partial<EngineResult> = {}): EngineResult => ({ stopped, billedInputTokens, toolRounds, toolCalls, usage, ...extra });

  try {
    for (;;) {
      if (why) return end(why, { during: 'request' });
      const { status } = harness.budget();
      if (status.signal === 'EXHAUSTED') return end('budget');
      const used = (input.spentTokens ?? 0) + usage.inputTokens + usage.outputTokens;
      if (input.tokenLimit !== undefined && used >= input.tokenLimit) return end('budget');

      const role = harness.activeRole().role;
      const tools = driver.tools(role);
      const turn: ModelTurn = { text: '', calls: [] };
      let counted = { inputTokens: 0, toolResultTokens: 0 };
      let refusal: string | undefined;
      const started = Date.now();
      const charge = async () => {
        const c = await driver.charge(turn, counted, Date.now() - started);
        usage.requests++;
        usage.inputTokens += c.inputTokens;
        usage.outputTokens += c.outputTokens;
        usage.costUsd += c.costUsd;
      };
      try {
        counted = await driver.countInput(tools, newToolResults, abort.signal);
        billedInputTokens = Math.max(0, counted.inputTokens - counted.toolResultTokens);
        // Never a request whose projected cost could pass the cost cap: at most one over it, ever.
        const projection = projectRequest({
          spentUsd: status.dimensions.cost.used, limits: role.limits, inputTokens: billedInputTokens,
          outputTokens: PROJECTED_OUTPUT_TOKENS, price: harness.priceOf(input.modelId),
        });
        if (!projection.send) return end('over-cap');
        for await (const part of driver.send(tools, abort.signal)) {
          if (part.type === 'text') turn.text += part.text;
          else if (part.type === 'toolCall') turn.calls.push({ callId: part.callId, name: part.name, input: part.input });
          else if (part.type === 'usage') turn.reported = part.usage;
          else refusal = part.message;
        }
      } catch (err) {
        // Output already streamed was generated (and billed by the provider), so it is charged.
        if (turn.text || turn.calls.length) await charge();
        const lastText = turn.text || undefined;
        if (why || abort.signal.aborted) return end(why ?? 'interrupted', { during: 'request', ...(lastText ? { lastText } : {}) });
        return end('error', { error: err, ...(lastText !== undefined ? { lastText } : {}) });
      }
      newToolResults = [];
      await charge();
      if (refusal !== undefined) return end('refused', { error: new Error(refusal), lastText: turn.text });
      if (turn.calls.length === 0) return end('done', { lastText: turn.text });
      if (toolRounds >= input.maxToolRounds) return end('rounds', { lastText: turn.text });
      toolRounds++;

      const results: Array<ToolOutcome<R>> = [];
      try {
        for (const call of turn.calls) {
          const out = await driver.runTool(call, abort.signal);
          const record: LoopToolCall = { name: call.name, input: call.input, fingerprint: out.fingerprint, refused: out.refused, failed: out.failed, ...(out.code ? { code: out.code } : {}) };
          toolCalls.push(record);
          input.onToolCall?.(record);
          results.push(out);
          newToolResults.push(out.text);
        }
      } catch (err) {
        if (!abort.signal.aborted) throw err;
        // A round cut off part-way is not kept: the conversation must not hold a call without its result.
        return end(why ?? 'interrupted', { during: 'tools', lastText: turn.text });
      }
      driver.appendRound(turn, results);
      await input.onRound?.();
    }
  } finally {
    if (timer) clearTimeout(timer);
    input.signal?.removeEventListener('abort', onAbort);
  }
}
