/**
 * The headless agent loop: the provider-independent part of the loop `@alfred` runs. Ask the model
 * with only the tools the role permits, run the tools it calls through the one governed call, feed
 * the results back, charge every request from its measured usage, and stop on an answer, an
 * exhausted budget, a request that could pass the cost cap, a token limit, the round limit, the time
 * limit, an interruption or a model failure. No VS Code: the trial runner and the command line use it.
 */
import { PROJECTED_OUTPUT_TOKENS, projectRequest } from '../budget/projection';
import { countTokens } from '../budget/tokens';
import type { Harness } from '../harness';
import type { RefusalCode } from '../policy/types';
import { ProviderError, type ChatMessage, type ReportedTokens, type RequestPart } from '../providers/types';
import { chargeAgentRequest, type AgentConfiguration } from './charge';
import type { AgentModel } from './model';
import { agentToolsFor, runAgentTool } from './tools';

export type LoopStop =
  | 'done'         // the model answered without calling a tool
  | 'budget'       // the role's budget is EXHAUSTED, or the loop's token limit is reached
  | 'over-cap'     // the next request could take the cost past the role's cap: not sent
  | 'rounds'       // the tool-round limit
  | 'timeout'      // the time limit
  | 'interrupted'  // the caller's signal
  | 'refused'      // the provider declined (safety, content policy)
  | 'error';       // the model failed (HTTP, connection, protocol)

export interface LoopToolCall {
  name: string;
  input: unknown;
  /** Name and canonical input: equal for calls that mean the same. */
  fingerprint: string;
  refused: boolean;
  code?: RefusalCode;
  failed: boolean;
}

export interface AgentLoopInput {
  harness: Harness;
  model: AgentModel;
  /** The conversation so far (system and user prompt first); appended to. */
  messages: ChatMessage[];
  maxToolRounds: number;
  /** Stops the loop as `interrupted`. */
  signal?: AbortSignal;
  /** Wall-clock time at which the loop stops as `timeout` (epoch ms). */
  deadline?: number;
  /** Model tokens (input + output) the loop may use before it stops as `budget`. */
  tokenLimit?: number;
  /** Usage already spent by earlier sessions of the same work (a resumed trial), counted against tokenLimit. */
  spentTokens?: number;
  /** Kept in each request's fingerprint. */
  configuration?: AgentConfiguration;
  /** `trial`, `agent`, …: the source of charges, traces and tool calls. */
  source?: string;
  onText?(text: string): void;
  onToolCall?(call: LoopToolCall): void;
  /** After each round of tool calls (the handoff is written here when it is on). */
  onRound?(): Promise<void>;
}

export interface AgentLoopResult {
  stopped: LoopStop;
  error?: Error;
  /** The model's last text. */
  answer: string;
  toolRounds: number;
  toolCalls: LoopToolCall[];
  usage: { requests: number; inputTokens: number; outputTokens: number; costUsd: number };
}

export async function runAgentLoop(input: AgentLoopInput): Promise<AgentLoopResult> {
  const { harness, model, messages } = input;
  const source = input.source ?? 'agent';
  const usage = { requests: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  const toolCalls: LoopToolCall[] = [];
  let toolRounds = 0;
  let answer = '';
  let newToolResults: string[] = [];
  const abort = new AbortController();
  let why: 'timeout' | 'interrupted' | undefined;
  const stopAs = (reason: 'timeout' | 'interrupted') => { why ??= reason; abort.abort(); };
  const onAbort = () => stopAs('interrupted');
  if (input.signal?.aborted) stopAs('interrupted');
  input.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = input.deadline === undefined ? undefined : setTimeout(() => stopAs('timeout'), Math.max(0, input.deadline - Date.now()));
  const end = (stopped: LoopStop, error?: Error): AgentLoopResult => ({ stopped, answer, toolRounds, toolCalls, usage, ...(error ? { error } : {}) });

  try {
    for (;;) {
      if (why) return end(why);
      const { status } = harness.budget();
      if (status.signal === 'EXHAUSTED') return end('budget');
      const used = (input.spentTokens ?? 0) + usage.inputTokens + usage.outputTokens;
      if (input.tokenLimit !== undefined && used >= input.tokenLimit) return end('budget');

      const role = harness.activeRole().role;
      const tools = agentToolsFor(role);
      const [inputTokens, toolResultTokens] = await Promise.all([countRequest(messages, tools), countAll(newToolResults)]);
      // Never a request whose projected cost could pass the cost cap (core/budget/projection.ts).
      const projection = projectRequest({
        spentUsd: status.dimensions.cost.used, limits: role.limits, inputTokens: Math.max(0, inputTokens - toolResultTokens),
        outputTokens: PROJECTED_OUTPUT_TOKENS, price: harness.priceOf(model.id),
      });
      if (!projection.send) return end(projection.reason === 'exhausted' ? 'budget' : 'over-cap');

      let text = '';
      const calls: Array<{ callId: string; name: string; input: unknown }> = [];
      let reported: ReportedTokens | undefined;
      let refusal: string | undefined;
      const started = Date.now();
      const charge = async () => {
        const outputTokens = await countAll([text, ...calls.map((c) => `${c.name} ${JSON.stringify(c.input)}`)]);
        const result = await chargeAgentRequest(harness, model, { inputTokens, outputTokens, toolResultTokens, ...(reported ? { reported } : {}), latencyMs: Date.now() - started }, source, input.configuration ?? {});
        usage.requests++;
        usage.inputTokens += result.record.inputTokens;
        usage.outputTokens += result.record.outputTokens;
        usage.costUsd += result.costUsd;
      };
      try {
        for await (const part of model.stream({ messages, ...(tools.length ? { tools } : {}) }, abort.signal)) {
          if (part.type === 'text') { text += part.text; input.onText?.(part.text); }
          else if (part.type === 'toolCall') calls.push({ callId: part.callId, name: part.name, input: part.input });
          else if (part.type === 'usage') reported = part.usage;
          else if (part.type === 'refusal') refusal = part.message;
        }
      } catch (err) {
        // Output already streamed was generated (and billed by the provider), so it is charged.
        if (text || calls.length) await charge();
        if (text) answer = text;
        if (why) return end(why);
        return end('error', err instanceof Error ? err : new ProviderError('protocol', String(err)));
      }
      newToolResults = [];
      await charge();
      if (text) answer = text;
      if (refusal !== undefined) return end('refused', new Error(refusal));
      if (calls.length === 0) return end('done');
      if (toolRounds >= input.maxToolRounds) return end('rounds');
      toolRounds++;

      const results: RequestPart[] = [];
      for (const call of calls) {
        if (why) break;
        const out = await runAgentTool(harness, call.name, call.input, { signal: abort.signal, source, model: model.id });
        const record: LoopToolCall = { name: call.name, input: call.input, fingerprint: out.fingerprint, refused: out.refused, failed: out.failed, ...(out.code ? { code: out.code } : {}) };
        toolCalls.push(record);
        input.onToolCall?.(record);
        results.push({ type: 'toolResult', callId: call.callId, content: out.text, ...(out.refused || out.failed ? { isError: true } : {}) });
        newToolResults.push(out.text);
      }
      const asked: RequestPart[] = [...(text ? [{ type: 'text' as const, text }] : []), ...calls.map((c) => ({ type: 'toolCall' as const, ...c }))];
      // A call left unanswered (interrupted) still gets a result: the protocols refuse a call without one.
      for (const c of calls.slice(results.length)) results.push({ type: 'toolResult', callId: c.callId, content: 'Not run: the session was interrupted.', isError: true });
      messages.push({ role: 'assistant', parts: asked }, { role: 'user', parts: results });
      await input.onRound?.();
    }
  } finally {
    if (timer) clearTimeout(timer);
    input.signal?.removeEventListener('abort', onAbort);
  }
}

async function countAll(texts: readonly string[]): Promise<number> {
  const counts = await Promise.all(texts.filter((t) => t).map((t) => countTokens(t)));
  return counts.reduce((a, b) => a + b, 0);
}

/** The request's input as the model reads it, counted with o200k: every message part and the tool definitions. */
function countRequest(messages: readonly ChatMessage[], tools: readonly object[]): Promise<number> {
  const texts = messages.flatMap((m) => m.parts.map((p) => {
    switch (p.type) {
      case 'text': return p.text;
      case 'toolCall': return `${p.name} ${JSON.stringify(p.input)}`;
      case 'toolResult': return p.content;
      case 'image': return '';
    }
  }));
  return countAll(tools.length ? [...texts, JSON.stringify(tools)] : texts);
}
