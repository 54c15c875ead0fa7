/**
 * What the governed agents spent, from the priced usage records (usage.jsonl): per agent session
 * (model calls, tokens in/out/cached, cost measured and estimated) and per model. Unpriced requests
 * (the model had no price: the fallback was used) are counted apart and never shown as exact.
 */
import type { UsageRecord } from '../models/spend';

export interface UsageTotals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** Cost of requests the agent or provider reported (measured) and Alfred priced from its table. */
  measuredUsd: number;
  /** Cost Alfred estimated: counted tokens, or a model with no price (the fallback price). */
  estimatedUsd: number;
  /** Requests whose model had a price. */
  priced: number;
}

export interface UsageSummary {
  since?: string;
  total: UsageTotals;
  sessions: Array<{ session: string; source: string; models: string[] } & UsageTotals>;
  models: Array<{ model: string } & UsageTotals>;
}

const zero = (): UsageTotals => ({ calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, measuredUsd: 0, estimatedUsd: 0, priced: 0 });

function add(t: UsageTotals, r: UsageRecord): void {
  t.calls += 1;
  t.inputTokens += r.inputTokens;
  t.outputTokens += r.outputTokens;
  t.cachedInputTokens += r.cachedInputTokens ?? 0;
  if (r.measured === 'reported' && !r.estimated) t.measuredUsd += r.costUsd;
  else t.estimatedUsd += r.costUsd;
  if (!r.estimated) t.priced += 1;
}

/** Records at or after `since` (ISO time or `YYYY-MM-DD`, UTC), grouped. */
export function summarizeUsage(records: readonly UsageRecord[], since?: string): UsageSummary {
  const from = since ? Date.parse(since.length === 10 ? `${since}T00:00:00Z` : since) : undefined;
  const total = zero();
  const sessions = new Map<string, UsageSummary['sessions'][number]>();
  const models = new Map<string, UsageSummary['models'][number]>();
  for (const r of records) {
    if (from !== undefined && Date.parse(r.ts) < from) continue;
    add(total, r);
    const key = r.agentSession ?? `(${r.source})`;
    const s = sessions.get(key) ?? { session: key, source: r.source, models: [], ...zero() };
    add(s, r);
    if (!s.models.includes(r.model)) s.models.push(r.model);
    sessions.set(key, s);
    const m = models.get(r.model) ?? { model: r.model, ...zero() };
    add(m, r);
    models.set(r.model, m);
  }
  return { ...(since ? { since } : {}), total, sessions: [...sessions.values()], models: [...models.values()] };
}
