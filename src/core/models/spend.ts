/**
 * The daily spend cap (ARCHITECTURE.md, Advisory limits warn, budgets refuse): advisory, never blocking. Spend today is the sum
 * of the priced usage records of the current UTC day; at 80% of `alfred.dailyBudgetUsd` a warning
 * once a day, at 100% a critical notice once a day (and a frugality note in every prompt).
 */
import { formatUsd } from '../base/money';
import { percentOf } from '../rules/budget/status';
import type { HarnessFingerprint } from './fingerprint/fingerprint';

export const SPEND_WARN_PERCENT = 80;
export const SPEND_CRITICAL_PERCENT = 100;

/** One model request, priced. */
export interface UsageRecord {
  ts: string;
  model: string;
  vendor?: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Priced with the fallback price (the model had no price). */
  estimated: boolean;
  /** `reported` by the provider, or `counted` with the model's tokenizer. */
  measured: 'reported' | 'counted';
  source: string;
  role?: string;
  session?: string;
  /** The agent session that made the request (a Copilot or Claude Code session id), when known. */
  agentSession?: string;
  /** Cache reads among `inputTokens`, when the report says. */
  cachedInputTokens?: number;
  /** The harness configuration that made the request; absent in records written before it existed. */
  fingerprint?: HarnessFingerprint;
}

/** `2025-03-01` for any time that day, in UTC. */
export function utcDay(at: Date | string): string {
  const d = typeof at === 'string' ? new Date(at) : at;
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 10);
}

export interface DaySpend {
  day: string;
  usd: number;
  /** Some of it was priced with the fallback price. */
  estimated: boolean;
  records: number;
}

export function spendOn(records: Iterable<UsageRecord>, day: string): DaySpend {
  let usd = 0;
  let estimated = false;
  let count = 0;
  for (const r of records) {
    if (utcDay(r.ts) !== day || !(r.costUsd >= 0)) continue;
    usd += r.costUsd;
    estimated ||= r.estimated;
    count++;
  }
  return { day, usd, estimated, records: count };
}

export type SpendLevel = 'off' | 'ok' | 'warning' | 'critical';

export interface SpendStatus extends DaySpend {
  capUsd: number;
  percent: number;
  level: SpendLevel;
}

/** A cap of 0 (or less) switches the whole feature off. */
export function spendStatus(spend: DaySpend, capUsd: number): SpendStatus {
  if (!(capUsd > 0)) return { ...spend, capUsd: 0, percent: 0, level: 'off' };
  const percent = percentOf(spend.usd, capUsd);
  const level: SpendLevel = percent >= SPEND_CRITICAL_PERCENT ? 'critical' : percent >= SPEND_WARN_PERCENT ? 'warning' : 'ok';
  return { ...spend, capUsd, percent, level };
}

/** Which notices were already given on `day`. */
export interface SpendNoticed {
  day: string;
  warning: boolean;
  critical: boolean;
}

export type SpendNotice = 'warning' | 'critical';

/**
 * The notices due now, at most one of each kind a day. Going straight past 100% gives the critical
 * notice only (it says more than the warning would).
 */
export function dueNotices(noticed: SpendNoticed | undefined, status: SpendStatus): { notices: SpendNotice[]; noticed: SpendNoticed } {
  const today: SpendNoticed = noticed?.day === status.day ? { ...noticed } : { day: status.day, warning: false, critical: false };
  const notices: SpendNotice[] = [];
  if (status.level === 'critical') {
    if (!today.critical) notices.push('critical');
    today.critical = true;
    today.warning = true;
  } else if (status.level === 'warning') {
    if (!today.warning) notices.push('warning');
    today.warning = true;
  }
  return { notices, noticed: today };
}

/** The note added to `@alfred`'s prompt while the cap is reached. */
export function frugalityNote(status: SpendStatus): string {
  return `Note from Alfred: today's spend of ${formatUsd(status.usd, { estimated: status.estimated })} has reached the daily cap of ${formatUsd(status.capUsd)}. `
    + 'Be frugal: answer briefly, call tools only when they are really needed, read only the lines you need.';
}
