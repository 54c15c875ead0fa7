/**
 * What the governed agents spent, from the priced usage records (usage.jsonl): per agent session
 * (model calls, tokens in/out/cached, cost measured and estimated, and the session's tool and shell
 * calls from the event log) and per model. A request whose model has no price is priced with the
 * fallback price, kept apart (`fallbackUsd`) so it is always shown as such (`~$0.0123 (fallback price)`).
 */
import type { AlfredEvent } from '../base/events/types';
import type { UsageRecord } from '../models/spend';

export interface UsageTotals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** Cost of priced requests whose tokens the agent or provider reported (measured). */
  measuredUsd: number;
  /** Cost of priced requests whose tokens Alfred counted itself (estimated). */
  estimatedUsd: number;
  /** Requests whose model had a price; the others (calls − priced) were priced with the fallback price. */
  priced: number;
  /** Cost of the requests priced with the fallback price (their model had none): an estimate. */
  fallbackUsd: number;
}

/** The governed tool calls of a session (ToolCall decisions of the event log). */
export interface ToolCounts {
  /** Every tool call the gate decided, allowed or refused. */
  toolCalls: number;
  refused: number;
  /** Shell invocations charged (allowed shell calls). */
  shellCalls: number;
}

export interface SessionUsage extends UsageTotals, ToolCounts {
  /** The agent session id, or `(source)` when the request or call did not say. */
  session: string;
  /** Who reported it: `claude-transcript`, `copilot-otel`, `chat`, … (a hook's `hook:PreToolUse` when only tool calls were seen). */
  source: string;
  models: string[];
  /** The time of its latest request or tool call (ISO). */
  lastSeen: string;
}

export interface UsageSummary {
  since?: string;
  total: UsageTotals & ToolCounts;
  sessions: SessionUsage[];
  models: Array<{ model: string } & UsageTotals>;
}

const zero = (): UsageTotals => ({ calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, measuredUsd: 0, estimatedUsd: 0, priced: 0, fallbackUsd: 0 });
const noTools = (): ToolCounts => ({ toolCalls: 0, refused: 0, shellCalls: 0 });

function add(t: UsageTotals, r: UsageRecord): void {
  t.calls += 1;
  t.inputTokens += r.inputTokens;
  t.outputTokens += r.outputTokens;
  t.cachedInputTokens += r.cachedInputTokens ?? 0;
  if (r.estimated) {
    t.fallbackUsd += r.costUsd;
    return;
  }
  t.priced += 1;
  if (r.measured === 'reported') t.measuredUsd += r.costUsd;
  else t.estimatedUsd += r.costUsd;
}

function addCall(t: ToolCounts, e: AlfredEvent): void {
  t.toolCalls += 1;
  if (e.decision === 'deny') t.refused += 1;
  const shell = (e.charge as { shell?: unknown } | undefined)?.shell;
  if (typeof shell === 'number' && shell > 0) t.shellCalls += shell;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** `YYYY-MM-DD` is that day's start in UTC; anything else is read as an ISO time. NaN when unreadable. */
export function sinceTime(since: string): number {
  return Date.parse(since.length === 10 ? `${since}T00:00:00Z` : since);
}

/**
 * Records and tool calls (ToolCall decision events; other events are ignored) at or after `since`,
 * grouped. Sessions come in the order first seen, records before events.
 */
export function summarizeUsage(records: readonly UsageRecord[], since?: string, events: readonly AlfredEvent[] = []): UsageSummary {
  const from = since ? sinceTime(since) : undefined;
  const after = (ts: string) => from === undefined || Date.parse(ts) >= from;
  const total = { ...zero(), ...noTools() };
  const sessions = new Map<string, SessionUsage>();
  const models = new Map<string, UsageSummary['models'][number]>();
  const sessionOf = (key: string, source: string, ts: string) => {
    const s = sessions.get(key) ?? { session: key, source, models: [], lastSeen: ts, ...zero(), ...noTools() };
    if (Date.parse(ts) > Date.parse(s.lastSeen)) s.lastSeen = ts;
    sessions.set(key, s);
    return s;
  };
  for (const r of records) {
    if (!after(r.ts)) continue;
    add(total, r);
    const s = sessionOf(r.agentSession ?? `(${r.source})`, r.source, r.ts);
    add(s, r);
    if (!s.models.includes(r.model)) s.models.push(r.model);
    const m = models.get(r.model) ?? { model: r.model, ...zero() };
    add(m, r);
    models.set(r.model, m);
  }
  for (const e of events) {
    if (e.type !== 'ToolCall' || e.phase !== 'decision' || !after(e.ts)) continue;
    const source = text(e.source) ?? 'unknown';
    addCall(total, e);
    addCall(sessionOf(text(e.agentSession) ?? `(${source})`, source, e.ts), e);
  }
  return { ...(since ? { since } : {}), total, sessions: [...sessions.values()], models: [...models.values()] };
}

/** A budget's cost split by how it was known (the status bar's tooltip). */
export interface CostSplit {
  /** Model requests the agent or provider reported, priced from Alfred's table. */
  measuredUsd: number;
  /** Everything else charged: tokens Alfred counted (tool outputs, `@alfred`'s requests) or the fallback price. */
  estimatedUsd: number;
  /** Some of the estimate is the fallback price of a model with no price. */
  fallback: boolean;
}

export const noCost = (): CostSplit => ({ measuredUsd: 0, estimatedUsd: 0, fallback: false });

/** Adds the cost an event charged to a budget (its `charge.costUsd`), measured or estimated. */
export function addCharge(split: CostSplit, e: AlfredEvent): CostSplit {
  const c = e.charge as { costUsd?: unknown; estimated?: unknown } | undefined;
  const usd = typeof c?.costUsd === 'number' && Number.isFinite(c.costUsd) && c.costUsd > 0 ? c.costUsd : 0;
  if (usd === 0) return split;
  const fallback = c?.estimated === true;
  if (e.type === 'ModelUsage' && e.measured === 'reported' && !fallback) return { ...split, measuredUsd: split.measuredUsd + usd };
  return { measuredUsd: split.measuredUsd, estimatedUsd: split.estimatedUsd + usd, fallback: split.fallback || fallback };
}
