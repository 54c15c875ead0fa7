import * as vscode from 'vscode';
import { parseReportedUsage, type ReportedUsage } from '../../core/rules/budget/reportedUsage';
import { chargeAgentRequest, type AgentConfiguration } from '../../core/agent/charge';
import { modelEndpoint } from '../../core/models/fingerprint/endpoint';
import type { Harness } from '../../core/harness/harness';
import type { ModelChargeResult } from '../../core/models/charge';
import { readProviders } from '../providers/providerSettings';

/**
 * Token counts of a model request: counted with the model's own `countTokens`, or taken from the
 * provider's report when it sends one (core/rules/budget/reportedUsage.ts: Copilot's `usage` data part,
 * or a JSON one), cached input included.
 */

export type { ReportedUsage };

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

/** A usage report in a data part of the response, if that is what it is. */
export function reportedUsage(part: vscode.LanguageModelDataPart): ReportedUsage | undefined {
  return parseReportedUsage(part.mimeType, part.data);
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
  /** What the turn put in the prompt, for the fingerprint (unknown parts are `n/a`). */
  configuration?: AgentConfiguration;
}

/** Where a model's requests go, for the fingerprint (core/models/fingerprint/endpoint.ts). */
export function endpointOf(model: Pick<vscode.LanguageModelChat, 'id' | 'vendor'>): string {
  return modelEndpoint(model.id, model.vendor, readProviders().providers);
}

/** Prices and charges one request (role budget's cost, daily spend record, trace), as the core loop charges its own. */
export function chargeRequest(harness: Harness, model: vscode.LanguageModelChat, usage: RequestUsage): Promise<ModelChargeResult> {
  return chargeAgentRequest(harness, { id: model.id, vendor: model.vendor, endpoint: endpointOf(model) }, usage, usage.source ?? 'chat', usage.configuration ?? {});
}
