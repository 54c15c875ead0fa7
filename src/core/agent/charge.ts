/**
 * Charges one model request of the loop (`@alfred`'s and the headless one alike): priced from the
 * usage the provider reported (else counted), tool results already charged by the tool path taken
 * off the role budget's share, kept in the daily spend and a trace, with the configuration's fingerprint.
 */
import type { Harness } from '../harness/harness';
import type { ModelChargeResult } from '../models/charge';
import type { ReportedTokens } from '../models/providers/types';
import type { AgentModel } from './model';

export interface AgentConfiguration {
  pack?: string;
  persona?: boolean;
  handoff?: boolean;
}

export interface RequestTokens {
  /** Counted (o200k) when the provider reports nothing. */
  inputTokens: number;
  outputTokens: number;
  /** Tokens of tool results first sent in this request (the tool path charged them). */
  toolResultTokens: number;
  /** What the provider reported, cached input included (either form: a wire client's or a usage data part's). */
  reported?: Pick<ReportedTokens, 'inputTokens' | 'outputTokens' | 'cachedInputTokens'>;
  latencyMs: number;
}

export async function chargeAgentRequest(harness: Harness, model: Pick<AgentModel, 'id' | 'vendor' | 'endpoint'>, usage: RequestTokens, source: string, configuration: AgentConfiguration): Promise<ModelChargeResult> {
  const inputTokens = usage.reported?.inputTokens ?? usage.inputTokens;
  const outputTokens = usage.reported?.outputTokens ?? usage.outputTokens;
  const cached = usage.reported?.cachedInputTokens ?? 0;
  const price = harness.priceOf(model.id);
  const fingerprint = harness.fingerprint({ model: model.id, endpoint: model.endpoint, ...configuration });
  const result = await harness.chargeModel({
    model: model.id, vendor: model.vendor, inputTokens, outputTokens, cachedInputTokens: cached,
    billedInputTokens: Math.max(0, inputTokens - usage.toolResultTokens),
    price, measured: usage.reported ? 'reported' : 'counted', source, fingerprint,
  });
  await harness.tracer.model({
    role: result.status.role, session: result.record.session ?? null, model: model.id, source, latencyMs: usage.latencyMs,
    tokens: { input: inputTokens, output: outputTokens, cached }, costUsd: result.costUsd, estimated: price.estimated, fingerprint,
  });
  return result;
}
