import * as vscode from 'vscode';
import type { Harness } from '../../core/harness';
import type { ModelChargeResult } from '../../core/models/charge';

/**
 * Token counts of a model request: counted with the model's own `countTokens`, or taken from the
 * provider's report when it sends one. (The stable API reports no usage; some providers add a JSON
 * data part `{ "usage": { "inputTokens", "outputTokens" } }`, also read in the OpenAI spelling.)
 */

export interface ReportedUsage {
  inputTokens: number;
  outputTokens: number;
}

export async function countMessages(model: vscode.LanguageModelChat, messages: readonly vscode.LanguageModelChatMessage[], tools: readonly vscode.LanguageModelChatTool[], token: vscode.CancellationToken): Promise<number> {
  const counts = await Promise.all([
    ...messages.map((m) => model.countTokens(m, token)),
    tools.length ? model.countTokens(JSON.stringify(tools), token) : Promise.resolve(0),
  ]);
  return counts.reduce((a, b) => a + b, 0);
}

export async function countText(model: vscode.LanguageModelChat, texts: readonly string[], token: vscode.CancellationToken): Promise<number> {
  const counts = await Promise.all(texts.filter((t) => t).map((t) => model.countTokens(t, token)));
  return counts.reduce((a, b) => a + b, 0);
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);

/** A usage report in a data part of the response, if that is what it is. */
export function reportedUsage(part: vscode.LanguageModelDataPart): ReportedUsage | undefined {
  if (!/json/i.test(part.mimeType)) return undefined;
  try {
    const value = JSON.parse(new TextDecoder().decode(part.data)) as { usage?: Record<string, unknown> };
    const u = value?.usage;
    if (!u || typeof u !== 'object') return undefined;
    const input = num(u.inputTokens) ?? num(u.promptTokens) ?? num(u.prompt_tokens) ?? num(u.input_tokens);
    const output = num(u.outputTokens) ?? num(u.completionTokens) ?? num(u.completion_tokens) ?? num(u.output_tokens);
    return input === undefined || output === undefined ? undefined : { inputTokens: input, outputTokens: output };
  } catch {
    return undefined;
  }
}

export interface RequestUsage {
  inputTokens: number;
  outputTokens: number;
  /** Tokens of tool results first read in this request (already charged by the tool path). */
  toolResultTokens: number;
  reported?: ReportedUsage;
  latencyMs: number;
  /** `chat` for the loop, `doctor` for a probe. */
  source?: string;
}

/** Prices and charges one request (role budget's cost, daily spend record, trace). */
export async function chargeRequest(harness: Harness, model: vscode.LanguageModelChat, usage: RequestUsage): Promise<ModelChargeResult> {
  const inputTokens = usage.reported?.inputTokens ?? usage.inputTokens;
  const outputTokens = usage.reported?.outputTokens ?? usage.outputTokens;
  const price = harness.priceOf(model.id);
  const result = await harness.chargeModel({
    model: model.id, vendor: model.vendor, inputTokens, outputTokens,
    billedInputTokens: Math.max(0, inputTokens - usage.toolResultTokens),
    price, measured: usage.reported ? 'reported' : 'counted', source: usage.source ?? 'chat',
  });
  await harness.tracer.model({
    role: result.status.role, session: result.record.session ?? null, model: model.id, source: usage.source ?? 'chat', latencyMs: usage.latencyMs,
    tokens: { input: inputTokens, output: outputTokens, cached: 0 }, costUsd: result.costUsd, estimated: price.estimated,
  });
  return result;
}
