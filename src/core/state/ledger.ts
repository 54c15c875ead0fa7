/**
 * The ledger: `ledger.json` in the state folder, the current harness session's usage. Every change
 * goes through `transact`, under the state lock, and is mirrored by events in the log so the ledger
 * can be rebuilt from it (`foldLedger`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DIMENSIONS, type Dimension, type Signal, type Usage } from '../budget/types';
import { newEventId, newSessionId, nowIso } from '../events/ids';
import { EVENTS_FILE, appendEvents, countLines, foldEvents } from '../events/log';
import type { AlfredEvent, NewEvent } from '../events/types';
import { withLock } from './lock';

export const LEDGER_FILE = 'ledger.json';

export interface Ledger {
  version: 1;
  session: string;
  role: string;
  startedAt: string;
  usage: Usage;
  costEstimated: boolean;
  /** Last reported level per dimension, so a crossing is announced once. */
  signals: Record<Dimension, Signal>;
  /** Lines in events.jsonl, so appends know when to rotate without counting. */
  eventLines: number;
}

export const zeroUsage = (): Usage => ({ tokens: 0, shell: 0, costUsd: 0 });
export const okSignals = (): Record<Dimension, Signal> => ({ tokens: 'OK', shell: 'OK', cost: 'OK' });

export function newLedger(role: string, eventLines = 0, startedAt = nowIso()): Ledger {
  return {
    version: 1, session: newSessionId(), role, startedAt, usage: zeroUsage(),
    costEstimated: false, signals: okSignals(), eventLines,
  };
}

const SIGNALS: readonly unknown[] = ['OK', 'WARNING', 'EXHAUSTED'];
const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;

function validate(value: unknown): Ledger | string {
  const l = value as Partial<Ledger> | null;
  if (typeof l !== 'object' || l === null) return 'not a JSON object';
  if (l.version !== 1) return `unknown version ${String(l.version)}`;
  for (const k of ['session', 'role', 'startedAt'] as const) if (typeof l[k] !== 'string' || !l[k]) return `bad ${k}`;
  const u = l.usage;
  if (!u || !isCount(u.tokens) || !isCount(u.shell) || !isCount(u.costUsd)) return 'bad usage';
  if (typeof l.costEstimated !== 'boolean') return 'bad costEstimated';
  if (!l.signals || !DIMENSIONS.every((d) => SIGNALS.includes(l.signals![d]))) return 'bad signals';
  if (!isCount(l.eventLines) || !Number.isInteger(l.eventLines)) return 'bad eventLines';
  return l as Ledger;
}

export interface LedgerFile {
  ledger?: Ledger;
  /** Why the file could not be used, when it exists but is corrupt. */
  problem?: string;
}

export function readLedgerFile(dir: string): LedgerFile {
  const file = path.join(dir, LEDGER_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return { problem: `${file}: ${(err as Error).message}` };
  }
  try {
    const checked = validate(JSON.parse(text));
    return typeof checked === 'string' ? { problem: `${file}: ${checked}` } : { ledger: checked };
  } catch (err) {
    return { problem: `${file}: not valid JSON: ${(err as Error).message}` };
  }
}

/** The ledger as on disk, without the lock (for display); undefined when missing or corrupt. */
export function readLedger(dir: string): Ledger | undefined {
  return readLedgerFile(dir).ledger;
}

/**
 * Atomic: a temporary file in the same folder, then rename over the old one. No fsync: this runs on
 * every tool call, and after a power loss the ledger can be rebuilt from the log.
 */
export function writeLedger(dir: string, ledger: Ledger): void {
  const file = path.join(dir, LEDGER_FILE);
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    fs.writeFileSync(tmp, JSON.stringify(ledger, null, 2) + '\n', { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/** Applies an event's `charge` field, if any, to a usage; the fold and live paths share it. */
export function applyCharge(ledger: Ledger, charge: unknown): void {
  if (typeof charge !== 'object' || charge === null) return;
  const c = charge as Record<string, unknown>;
  if (isCount(c.tokens)) ledger.usage.tokens += c.tokens;
  if (isCount(c.shell)) ledger.usage.shell += c.shell;
  if (isCount(c.costUsd)) ledger.usage.costUsd += c.costUsd;
  if (c.estimated === true) ledger.costEstimated = true;
}

/**
 * Rebuilds the latest session from the event log: a session starts at `BudgetReset`, at
 * `RoleChanged`, or where the `session` field changes; `charge` fields add up; `BudgetWarning` /
 * `BudgetExhausted` restore the reported signals. Undefined when the log has no events.
 */
export async function foldLedger(dir: string): Promise<Ledger | undefined> {
  const { state } = await foldEvents<Ledger | undefined>(dir, (cur, e) => {
    let l = cur;
    if (!l || e.type === 'BudgetReset' || e.type === 'RoleChanged' || e.session !== l.session) {
      l = { ...newLedger(String(e.role)), session: String(e.session), startedAt: e.ts };
    }
    applyCharge(l, e.charge);
    const dim = e.dimension as Dimension;
    if (DIMENSIONS.includes(dim)) {
      if (e.type === 'BudgetWarning' && l.signals[dim] === 'OK') l.signals[dim] = 'WARNING';
      if (e.type === 'BudgetExhausted') l.signals[dim] = 'EXHAUSTED';
    }
    return l;
  }, undefined);
  if (state) state.eventLines = countLines(path.join(dir, EVENTS_FILE));
  return state;
}

export interface TransactResult<T> {
  result: T;
  /** Every event written, in order, complete (id, ts, session, role): push these onto the bus. */
  events: AlfredEvent[];
  ledger: Ledger;
  /** Problems met and worked around (a corrupt ledger), for the caller to report. */
  problems: string[];
}

export type TransactFn<T> = (ledger: Ledger) => { events: NewEvent[]; result: T } | Promise<{ events: NewEvent[]; result: T }>;

/** Reads the ledger, rebuilding it from the log when it is missing or corrupt. Call under the lock. */
async function loadLedger(dir: string, problems: string[]): Promise<Ledger | undefined> {
  const { ledger, problem } = readLedgerFile(dir);
  if (ledger) return ledger;
  if (problem) problems.push(`${problem}; rebuilt from the event log`);
  return foldLedger(dir);
}

function complete(e: NewEvent, ledger: Ledger, ts: string): AlfredEvent {
  const { type, id: _id, ts: _ts, session: _s, role: _r, ...payload } = e;
  return { id: newEventId(), ts, type, session: ledger.session, role: ledger.role, ...payload };
}

async function run<T>(dir: string, roleName: string, fn: TransactFn<T>, resetReason?: string): Promise<TransactResult<T>> {
  return withLock(dir, async () => {
    const problems: string[] = [];
    const prev = await loadLedger(dir, problems);
    // One timestamp for the batch, so a new session's startedAt equals its first event's ts (and fold agrees).
    const ts = nowIso();
    const lines = () => prev?.eventLines ?? countLines(path.join(dir, EVENTS_FILE));
    let ledger: Ledger;
    const opening: NewEvent[] = [];
    if (resetReason !== undefined) {
      ledger = newLedger(roleName, lines(), ts);
      opening.push({ type: 'BudgetReset', reason: resetReason, previousSession: prev?.session, previousRole: prev?.role, previousUsage: prev?.usage });
    } else if (!prev || prev.role !== roleName) {
      ledger = newLedger(roleName, lines(), ts);
      if (prev) opening.push({ type: 'RoleChanged', from: prev.role, to: roleName, previousSession: prev.session });
    } else {
      ledger = prev;
    }
    const { events, result } = await fn(ledger);
    const all = [...opening, ...events].map((e) => complete(e, ledger, ts));
    ledger.eventLines = appendEvents(dir, all, ledger.eventLines);
    writeLedger(dir, ledger);
    return { result, events: all, ledger, problems };
  });
}

/**
 * The one way to change the ledger: under the lock, read it (a new session when there is none or
 * its role is not `roleName`, with a `RoleChanged` event unless it is the very first), let `fn`
 * change usage and signals and return events, complete and append those events, write the ledger.
 * If `fn` throws, nothing is written.
 */
export function transact<T>(dir: string, roleName: string, fn: TransactFn<T>): Promise<TransactResult<T>> {
  return run(dir, roleName, fn);
}

/** Starts a new session for `roleName` with zero usage, recorded as a `BudgetReset` event. */
export async function resetSession(dir: string, roleName: string, reason: string): Promise<TransactResult<void>> {
  return run(dir, roleName, () => ({ events: [], result: undefined }), reason);
}

/** Appends events (ConfigWritten, CheckRun, …) to the log as part of the current session. */
export async function recordEvents(dir: string, roleName: string, events: NewEvent[]): Promise<AlfredEvent[]> {
  return (await run(dir, roleName, () => ({ events, result: undefined }))).events;
}
