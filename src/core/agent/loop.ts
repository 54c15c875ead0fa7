/**
 * The headless agent loop (trials, the command line): the one loop of engine.ts driven with one of
 * Alfred's own providers, the core tools behind the governed call, o200k token counts, and a
 * conversation in the providers' neutral messages. No VS Code.
 */
import { countTokens } from '../rules/budget/tokens';
import type { ChatMessage, RequestPart, ToolDefinition } from '../models/providers/types';
import { chargeAgentRequest, type AgentConfiguration } from './charge';
import { runEngine, type LoopDriver, type LoopOptions, type LoopStop, type LoopToolCall } from './engine';
import type { AgentModel } from './model';
import { agentToolsFor, runAgentTool, type AgentToolResult } from './tools';

export type { LoopStop, LoopToolCall };

export interface AgentLoopInput extends LoopOptions {
  model: AgentModel;
  /** The conversation so far (system and user prompt first); appended to. */
  messages: ChatMessage[];
  /** Kept in each request's fingerprint. */
  configuration?: AgentConfiguration;
  /** `trial`, `agent`, …: the source of charges, traces and tool calls. */
  source?: string;
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
  const { model, messages, configuration, source: given, ...options } = input;
  const { harness } = options;
  const source = given ?? 'agent';
  let answer = '';
  const driver: LoopDriver<ToolDefinition, AgentToolResult> = {
    tools: (role) => agentToolsFor(role),
    countInput: async (tools, newToolResults) => {
      const [inputTokens, toolResultTokens] = await Promise.all([countRequest(messages, tools), countAll(newToolResults)]);
      return { inputTokens, toolResultTokens };
    },
    send: async function* (tools, signal) {
      for await (const part of model.stream({ messages, ...(tools.length ? { tools: [...tools] } : {}) }, signal)) {
        if (part.type === 'text' || part.type === 'toolCall' || part.type === 'usage' || part.type === 'refusal') yield part;
      }
    },
    charge: async (turn, counted, latencyMs) => {
      const outputTokens = await countAll([turn.text, ...turn.calls.map((c) => `${c.name} ${JSON.stringify(c.input)}`)]);
      const result = await chargeAgentRequest(harness, model, {
        inputTokens: counted.inputTokens, outputTokens, toolResultTokens: counted.toolResultTokens, ...(turn.reported ? { reported: turn.reported } : {}), latencyMs,
      }, source, configuration ?? {});
      return { inputTokens: result.record.inputTokens, outputTokens: result.record.outputTokens, costUsd: result.costUsd };
    },
    runTool: async (call, signal) => {
      if (signal.aborted) throw new Error('interrupted');
      const out = await runAgentTool(harness, call.name, call.input, { signal, source, model: model.id });
      return { ...out, result: out };
    },
    appendRound: (turn, results) => {
      const asked: RequestPart[] = [...(turn.text ? [{ type: 'text' as const, text: turn.text }] : []), ...turn.calls.map((c) => ({ type: 'toolCall' as const, ...c }))];
      const answered: RequestPart[] = results.map((r, i) => ({ type: 'toolResult', callId: turn.calls[i]!.callId, content: r.text, ...(r.refused || r.failed ? { isError: true } : {}) }));
      messages.push({ role: 'assistant', parts: asked }, { role: 'user', parts: answered });
    },
  };
  const result = await runEngine({ ...options, modelId: model.id, driver });
  // The last text the model gave, the answer when it ended on one.
  for (const m of messages) if (m.role === 'assistant') for (const p of m.parts) if (p.type === 'text') answer = p.text;
  if (result.lastText) answer = result.lastText;
  const error = result.error === undefined ? undefined : result.error instanceof Error ? result.error : new Error(String(result.error));
  return { stopped: result.stopped, answer, toolRounds: result.toolRounds, toolCalls: result.toolCalls, usage: result.usage, ...(error ? { error } : {}) };
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
