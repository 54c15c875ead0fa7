/**
 * Charges the model requests an agent reported (Copilot's OpenTelemetry, Claude Code's transcript) to
 * the active role's cost budget, each exactly once: the ids already charged are kept in the ledger and
 * checked under its lock, so two hook processes reading the same new lines charge them once. Each
 * charge is `measured` (ModelUsage events and usage.jsonl say so), and cache reads and writes are
 * priced as such where the price table has them.
 */
import { costOfUsage, priceFor, type ModelPrice } from '../rules/budget/prices';
import type { NewEvent } from '../base/events/types';
import type { HarnessFingerprint } from '../models/fingerprint/fingerprint';
import { appendUsage } from '../models/usageLog';
import type { UsageRecord } from '../models/spend';
import type { Role } from '../rules/roles/types';
import { chargeLedger, settle, type GovernResult } from '../ledger/govern';
import { transact } from '../ledger/ledgerStore';
import type { ModelUsageRecord } from './types';

/** Ids remembered: far more than the requests between two reads of one source. */
const MAX_REMEMBERED = 4096;

export interface MeasuredCharge extends GovernResult {
  /** The records charged now (those already charged are left out). */
  charged: Array<{ record: ModelUsageRecord; costUsd: number; estimated: boolean }>;
}

export async function chargeMeasured(
  dir: string, role: Role, records: readonly ModelUsageRecord[],
  pricing: { overrides?: Readonly<Record<string, ModelPrice>>; fallback?: ModelPrice } = {},
  /** The harness configuration for a request to this model, kept in its usage record and event. */
  fingerprint?: (model: string) => HarnessFingerprint,
): Promise<MeasuredCharge> {
  const out = await transact(dir, role.name, (ledger) => {
    const seen = new Set(ledger.measured ?? []);
    const charged: MeasuredCharge['charged'] = [];
    const events: NewEvent[] = [];
    for (const record of records) {
      if (seen.has(record.id)) continue;
      seen.add(record.id);
      const fp = fingerprint ? { fingerprint: fingerprint(record.model) } : {};
      const price = priceFor(record.model, pricing.overrides, pricing.fallback);
      const costUsd = costOfUsage({ input: record.inputTokens, cachedInput: record.cachedInputTokens, cacheWrite: record.cacheCreationInputTokens, output: record.outputTokens }, price);
      const charge = chargeLedger(ledger, { costUsd, estimated: price.estimated });
      charged.push({ record, costUsd, estimated: price.estimated });
      const usage: UsageRecord = {
        ts: record.at, model: record.model, inputTokens: record.inputTokens, outputTokens: record.outputTokens, costUsd,
        estimated: price.estimated, measured: 'reported', source: record.source, role: role.name, session: ledger.session,
        ...(record.sessionId ? { agentSession: record.sessionId } : {}), cachedInputTokens: record.cachedInputTokens, ...fp,
      };
      appendUsage(dir, usage);
      events.push({
        type: 'ModelUsage', model: record.model, source: record.source, measured: 'reported', requestId: record.id,
        ...(record.sessionId ? { agentSession: record.sessionId } : {}),
        inputTokens: record.inputTokens, outputTokens: record.outputTokens, cachedInputTokens: record.cachedInputTokens, costUsd,
        charge, ...fp,
      });
    }
    ledger.measured = [...seen].slice(-MAX_REMEMBERED);
    const settled = settle(ledger, role);
    return { events: [...events, ...settled.events], result: { ...settled, charged } };
  });
  const { status, line, crossed, charged } = out.result;
  return { status, line, crossed, events: out.events, problems: out.problems, charged };
}
