/**
 * Charges one model request of `@alfred` to the role budget's cost and records it for the daily
 * spend, under one lock: the ledger, the event log and `usage.jsonl` can never disagree.
 */
import { costOfUsage, type PriceQuote } from '../rules/budget/prices';
import type { NewEvent } from '../base/events/types';
import type { HarnessFingerprint } from './fingerprint/fingerprint';
import type { Role } from '../rules/roles/types';
import { chargeLedger, settle, type GovernResult } from '../ledger/govern';
import { transact } from '../ledger/ledgerStore';
import type { UsageRecord } from './spend';
import { appendUsage } from './usageLog';

export interface ModelUsage {
  model: string;
  vendor?: string;
  inputTokens: number;
  outputTokens: number;
  /** Cache reads among `inputTokens`, when the provider reported them: priced at the cached price where there is one. */
  cachedInputTokens?: number;
  /**
   * Input tokens not already charged elsewhere: tool outputs the governed tool path charged as
   * context (and their cost) are left out here, so the role budget counts them once.
   */
  billedInputTokens?: number;
  price: PriceQuote;
  measured: UsageRecord['measured'];
  source: string;
  /** The harness configuration that made the request, kept in the usage record and the ModelUsage event. */
  fingerprint?: HarnessFingerprint;
}

export interface ModelChargeResult extends GovernResult {
  /** The full cost of the request (what the daily spend counts). */
  costUsd: number;
  /** What the role budget was charged. */
  chargedUsd: number;
  record: UsageRecord;
}

const count = (n: number | undefined): number => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.round(n) : 0);

export async function chargeModelUsage(dir: string, role: Role, usage: ModelUsage, now: Date = new Date()): Promise<ModelChargeResult> {
  const inputTokens = count(usage.inputTokens);
  const outputTokens = count(usage.outputTokens);
  const billed = Math.min(inputTokens, usage.billedInputTokens === undefined ? inputTokens : count(usage.billedInputTokens));
  const cached = Math.min(inputTokens, count(usage.cachedInputTokens));
  const costUsd = costOfUsage({ input: inputTokens, cachedInput: cached, cacheWrite: 0, output: outputTokens }, usage.price);
  // The tool results left out of `billed` are this request's new tail, never its cached prefix.
  const chargedUsd = costOfUsage({ input: billed, cachedInput: Math.min(cached, billed), cacheWrite: 0, output: outputTokens }, usage.price);
  const estimated = usage.price.estimated;
  const out = await transact(dir, role.name, (ledger) => {
    const charge = chargeLedger(ledger, { costUsd: chargedUsd, estimated });
    const settled = settle(ledger, role);
    const record: UsageRecord = {
      ts: now.toISOString(), model: usage.model, ...(usage.vendor ? { vendor: usage.vendor } : {}),
      inputTokens, outputTokens, costUsd, estimated, measured: usage.measured, source: usage.source,
      role: role.name, session: ledger.session, ...(cached > 0 ? { cachedInputTokens: cached } : {}),
      ...(usage.fingerprint ? { fingerprint: usage.fingerprint } : {}),
    };
    appendUsage(dir, record);
    const events: NewEvent[] = [{
      type: 'ModelUsage', model: usage.model, ...(usage.vendor ? { vendor: usage.vendor } : {}), source: usage.source,
      inputTokens, outputTokens, ...(cached > 0 ? { cachedInputTokens: cached } : {}), measured: usage.measured, costUsd,
      ...(estimated ? { estimated: true } : {}),
      charge,
      ...(usage.fingerprint ? { fingerprint: usage.fingerprint } : {}),
    }, ...settled.events];
    return { events, result: { ...settled, record } };
  });
  const { status, line, crossed, record } = out.result;
  return { status, line, crossed, events: out.events, problems: out.problems, costUsd, chargedUsd, record };
}
