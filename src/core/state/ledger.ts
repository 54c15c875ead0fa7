/**
 * The ledger: `ledger.json` in the state folder, the current harness session's usage. Every change
 * goes through `transact`, under the state lock, and is mirrored by events in the log so the ledger
 * can be rebuilt from it (`foldLedger`).
 */
import type { TerminalClaim } from './terminalClaims';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DIMENSIONS, type Dimension, type Signal, type Usage } from '../budget/types';
import { newEventId, newSessionId, nowIso } from '../events/ids';
import { ChargeCounts, EventRun, chargeOf, headerValue, matchRun, readCharge } from '../events/lineShape';
import { EVENTS_FILE, appendEvents, countLines, rotatedFile, scanEventParts, scanEvents, type EventScanner, type LogPart, type ScanOptions } from '../events/log';
import type { AlfredEvent, NewEvent } from '../events/types';
import { atomicWrite } from '../fs/atomicWrite';
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
  /**
   * Where the ledger's fold of the log ends: events.jsonl's size and inode when it was written. A
   * process killed between appending its events and writing the ledger leaves events beyond it,
   * which the next transaction folds in (`catchUp`). Absent in a ledger written before Alfred kept it.
   */
  eventBytes?: number;
  eventIno?: number;
  /** Terminal commands a hook already charged, waiting for their terminal run (terminalClaims.ts). */
  terminalCharged?: TerminalClaim[];
  /** Ids of the measured model requests already charged (usage/chargeMeasured.ts), newest last, bounded. */
  measured?: string[];
  /** Fingerprints of the latest tool calls, newest last (policy/repetition.ts: the runaway guard). */
  recentCalls?: string[];
  /** Sub-agents started by an allowed task tool whose PostToolUse has not come yet. */
  subagentsRunning?: number;
  /**
   * A threshold was crossed (by any charge: a hook's, a measured request's, a terminal's) and no
   * hook has given an agent the budget line since (state/govern.ts, `settle` and `takeCrossing`).
   */
  crossingUnannounced?: boolean;
}

/**
 * Ledger fields that are memory, not accounting: the log does not carry them, so a ledger folded
 * from the log starts them empty (at worst a terminal command or a re-read report is charged again,
 * or a crossing is not given to an agent as context; its event is in the log all the same).
 */
export const LEDGER_MEMORY_FIELDS = ['terminalCharged', 'measured', 'recentCalls', 'subagentsRunning', 'crossingUnannounced'] as const;

/** The ledger's accounting: what a fold of the log must equal. */
export function accountingOf(ledger: Ledger | undefined): Ledger | undefined {
  if (!ledger) return ledger;
  const copy = { ...ledger };
  for (const k of LEDGER_MEMORY_FIELDS) delete copy[k];
  return copy;
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
  if ((l.eventBytes !== undefined && !Number.isSafeInteger(l.eventBytes)) || (l.eventIno !== undefined && !isCount(l.eventIno))) {
    delete l.eventBytes; // an end that cannot be trusted: the ledger is taken as it stands
    delete l.eventIno;
  }
  if (l.terminalCharged !== undefined && !Array.isArray(l.terminalCharged)) delete l.terminalCharged;
  if (l.measured !== undefined && !Array.isArray(l.measured)) delete l.measured;
  if (l.recentCalls !== undefined && !Array.isArray(l.recentCalls)) delete l.recentCalls;
  if (l.subagentsRunning !== undefined && !isCount(l.subagentsRunning)) delete l.subagentsRunning;
  if (l.crossingUnannounced !== undefined && typeof l.crossingUnannounced !== 'boolean') delete l.crossingUnannounced;
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
 * Atomic. No fsync: this runs on every tool call, and after a power loss the ledger can be rebuilt
 * from the log.
 */
export function writeLedger(dir: string, ledger: Ledger): void {
  atomicWrite(path.join(dir, LEDGER_FILE), JSON.stringify(ledger, null, 2) + '\n', { fsync: false });
}

/** What a charge adds to: a ledger, or a fold's running totals. */
interface ChargeTarget {
  usage: Usage;
  costEstimated: boolean;
}

/** Applies an event's `charge` field, if any, to a usage; the fold and live paths share it. */
export function applyCharge(target: ChargeTarget, charge: unknown): void {
  if (typeof charge !== 'object' || charge === null) return;
  const c = charge as Record<string, unknown>;
  addCharge(target, c.tokens, c.shell, c.costUsd, c.estimated === true);
}

function addCharge(target: ChargeTarget, tokens: unknown, shell: unknown, costUsd: unknown, estimated: boolean): void {
  if (isCount(tokens)) target.usage.tokens += tokens;
  if (isCount(shell)) target.usage.shell += shell;
  if (isCount(costUsd)) target.usage.costUsd += costUsd;
  if (estimated) target.costEstimated = true;
}

/** Folds one fully parsed event into the ledger (the reference the fast path below must match). */
function foldEvent(cur: Ledger | undefined, e: AlfredEvent): Ledger {
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
}

/** A usage as a class: one object shape for every fold (see LedgerFold). */
class RunningUsage implements Usage {
  tokens = 0;
  shell = 0;
  costUsd = 0;
}

/** A new session's ledger from the header of the run's first line (ASCII: latin1 is its text). */
function openLedger(bytes: Buffer, text: string, start: number, session: string): Ledger {
  // Copies: a slice of the chunk's text would keep the whole chunk alive as long as the ledger.
  const ascii = ([from, to]: [number, number]): string => bytes.toString('latin1', from, to);
  const sessionCopy = Buffer.from(session, 'latin1').toString('latin1');
  return { ...newLedger(ascii(headerValue(text, start, 'role'))), session: sessionCopy, startedAt: ascii(headerValue(text, start, 'ts')) };
}

/**
 * One fold: `fast` folds runs of lines Alfred wrote from their text (events/lineShape.ts), `event`
 * a line parsed in full. What every line touches is kept here, in objects of fixed shape that are
 * reused (`idleFolds`): the session id, and the usage, added up here rather than in the ledger
 * object (the same additions in the same order, so the same sums). V8 throws away optimized code
 * when an object shape it relies on is collected, and each fold would otherwise start slow again.
 */
class LedgerFold implements EventScanner, ChargeTarget {
  private ledger: Ledger | undefined = undefined;
  private session = '';
  readonly usage = new RunningUsage();
  costEstimated = false;
  // Reused from run to run; a run is matched and read in one synchronous step.
  private readonly run = new EventRun();
  private readonly charge = new ChargeCounts();

  /** Set when the lines were too large to match: the rest of the fold parses every line in full. */
  private tooLarge = false;

  fast(bytes: Buffer, text: string, start: number, folded: { end: number }): number {
    const run = this.run;
    if (this.tooLarge) return 0;
    try {
      if (!matchRun(text, start, run)) return 0;
    } catch {
      this.tooLarge = true; // and not retried line after line, each time over the same huge line
      return 0;
    }
    // Its lines are of one session and none opens one: only the first can start a new ledger.
    if (this.ledger === undefined || run.session !== this.session) this.begin(openLedger(bytes, text, start, run.session));
    let lines = 0;
    for (let at = start; at < run.end; lines++) {
      const end = text.indexOf('\n', at);
      const open = chargeOf(text, at, end);
      if (open >= 0) {
        const c = this.charge;
        readCharge(text, open, end - 1, c);
        addCharge(this, c.tokens, c.shell, c.costUsd, c.estimated);
      }
      at = end + 1;
    }
    folded.end = run.end;
    return lines;
  }

  event(e: AlfredEvent): void {
    this.begin(foldEvent(this.result(), e));
  }

  /** Continues from `ledger` (undefined: nothing folded yet); its usage is added to from here on. */
  begin(ledger: Ledger | undefined): void {
    if (ledger === undefined) this.tooLarge = false;
    this.ledger = ledger;
    this.session = ledger?.session ?? '';
    this.usage.tokens = ledger?.usage.tokens ?? 0;
    this.usage.shell = ledger?.usage.shell ?? 0;
    this.usage.costUsd = ledger?.usage.costUsd ?? 0;
    this.costEstimated = ledger?.costEstimated ?? false;
  }

  /** The ledger folded so far, its usage up to date. */
  result(): Ledger | undefined {
    const l = this.ledger;
    if (l) {
      l.usage.tokens = this.usage.tokens;
      l.usage.shell = this.usage.shell;
      l.usage.costUsd = this.usage.costUsd;
      l.costEstimated = this.costEstimated;
    }
    return l;
  }
}

const idleFolds: LedgerFold[] = [];

/**
 * Rebuilds the latest session from the event log: a session starts at `BudgetReset`, at
 * `RoleChanged`, or where the `session` field changes; `charge` fields add up; `BudgetWarning` /
 * `BudgetExhausted` restore the reported signals. Undefined when the log has no events.
 *
 * Fast: runs of lines Alfred wrote are recognised and read without JSON.parse (events/lineShape.ts);
 * any other line, and the rare lines that open a session or set a signal, are parsed in full and
 * folded by `foldEvent`, so the result is exactly what parsing every line would give.
 */
export function foldLedger(dir: string, options: ScanOptions = {}): Promise<Ledger | undefined> {
  return foldFrom(dir, undefined, (fold) => scanEvents(dir, fold, options));
}

/** Folds what `scan` reads onto `start` (undefined: from nothing) and marks where the log ends now. */
async function foldFrom(dir: string, start: Ledger | undefined, scan: (fold: LedgerFold) => Promise<unknown>): Promise<Ledger | undefined> {
  const fold = idleFolds.pop() ?? new LedgerFold();
  fold.begin(start);
  try {
    await scan(fold);
    const l = fold.result();
    if (l) markLogEnd(dir, l);
    return l;
  } finally {
    fold.begin(undefined);
    idleFolds.push(fold);
  }
}

/** Records events.jsonl's lines, size and inode in the ledger: the end of the log it has folded. */
function markLogEnd(dir: string, ledger: Ledger, lines?: number): void {
  const file = path.join(dir, EVENTS_FILE);
  const st = fs.statSync(file, { throwIfNoEntry: false });
  ledger.eventLines = lines ?? countLines(file);
  ledger.eventBytes = st?.size ?? 0;
  if (st) ledger.eventIno = st.ino;
  else delete ledger.eventIno;
}

/**
 * What the log holds beyond the ledger's end of it, told by a stat alone when nothing is (the common
 * case). Undefined when that end cannot be found (the log removed or rewritten by hand): the ledger
 * is kept as it stands, as is a ledger that never recorded its end.
 */
function partsBeyond(dir: string, ledger: Ledger): LogPart[] | undefined {
  const { eventBytes: bytes, eventIno: ino } = ledger;
  if (bytes === undefined) return undefined;
  const file = path.join(dir, EVENTS_FILE);
  const now = fs.statSync(file, { throwIfNoEntry: false });
  if (ino === undefined) {
    // There was no events.jsonl: whatever is there now came after.
    if (bytes !== 0) return undefined;
    return now && now.size > 0 ? [{ file, from: 0 }] : [];
  }
  if (now?.ino === ino) {
    if (now.size === bytes) return [];
    return now.size > bytes ? [{ file, from: bytes }] : undefined;
  }
  // Rotated since: the ledger's file is events.1.jsonl now, and events.jsonl (if any) is all new.
  const old = rotatedFile(dir, 1);
  const was = fs.statSync(old, { throwIfNoEntry: false });
  if (was?.ino !== ino || was.size < bytes) return undefined;
  return now ? [{ file: old, from: bytes }, { file, from: 0 }] : [{ file: old, from: bytes }];
}

/**
 * Folds in the events a killed process appended without writing the ledger (or wrote only in part: a
 * torn last line is a corrupt line, which the next append ends), so the log stays the truth and no
 * charge is lost or counted twice. Call under the lock.
 */
async function catchUp(dir: string, ledger: Ledger): Promise<Ledger> {
  const parts = partsBeyond(dir, ledger);
  if (parts === undefined || parts.length === 0) return ledger;
  return (await foldFrom(dir, ledger, (fold) => scanEventParts(parts, fold)))!;
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

/**
 * Reads the ledger, caught up with the log; rebuilt from the log when it is missing or corrupt. Call
 * under the lock.
 */
async function loadLedger(dir: string, problems: string[]): Promise<Ledger | undefined> {
  const { ledger, problem } = readLedgerFile(dir);
  if (ledger) return catchUp(dir, ledger);
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
    markLogEnd(dir, ledger, appendEvents(dir, all, ledger.eventLines));
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
