/**
 * The ledger rebuilt from the event log (`foldLedger`), and caught up with what the log holds beyond
 * the ledger's end of it (`catchUp`), so the log stays the truth.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DIMENSIONS, type Dimension, type Usage } from '../rules/budget/types';
import { countLines, type AppendedEvents } from '../base/events/append';
import { EVENTS_FILE, eventFiles, rotatedFile } from '../base/events/format';
import { ChargeCounts, EventRun, chargeOf, headerValue, matchRun, readCharge } from '../base/events/lineShape';
import { scanEventParts, type EventScanner, type LogPart, type ReadEnd, type ScanOptions, type ScanResult } from '../base/events/scan';
import type { AlfredEvent } from '../base/events/types';
import { isCount, newLedger, type Ledger } from './ledgerFormat';

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

/**
 * Folds a scope's log in the database (state/pgLedger), oldest first, onto a ledger (undefined: from
 * nothing), as a fold of the file log would, with one difference. Several state folders write that
 * log, and one that could not reach the database went on in its own copy, in the session the copy
 * had (or a new one, if the folder had never reached it) while the scope may have moved to another.
 * Its events, sent once the database is back, are charges made under the scope's budget: a session
 * that no RoleChanged or BudgetReset opened joins the current one instead of starting the budget over.
 */
export function foldScopeEvents(ledger: Ledger | undefined, events: readonly AlfredEvent[]): Ledger | undefined {
  let l = ledger;
  for (const e of events) {
    const opens = e.type === 'BudgetReset' || e.type === 'RoleChanged';
    l = foldEvent(l, l && !opens && e.session !== l.session ? { ...e, session: l.session } : e);
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
 * One fold: `fast` folds runs of lines Alfred wrote from their text (base/events/lineShape.ts), `event`
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
 * Fast: runs of lines Alfred wrote are recognised and read without JSON.parse (base/events/lineShape.ts);
 * any other line, and the rare lines that open a session or set a signal, are parsed in full and
 * folded by `foldEvent`, so the result is exactly what parsing every line would give.
 */
export function foldLedger(dir: string, options: ScanOptions = {}): Promise<Ledger | undefined> {
  const parts = eventFiles(dir).map((file) => ({ file, from: 0 }));
  return foldFrom(dir, undefined, (fold) => scanLog(dir, parts, fold, options));
}

/**
 * Scans parts of the log. The last line of events.jsonl is left for later when nothing ends it yet:
 * half of another process's append, seen while it writes, must not be folded as a corrupt line and
 * passed over. A rotated file's last line is final and read as it is.
 */
function scanLog(dir: string, parts: readonly LogPart[], scanner: EventScanner, options: ScanOptions = {}): Promise<ScanResult> {
  const wholeLinesOnly = parts.at(-1)?.file === path.join(dir, EVENTS_FILE);
  return scanEventParts(parts, scanner, { ...options, wholeLinesOnly });
}

/**
 * Folds what `scan` reads onto `start` (undefined: from nothing) and marks where that read ended: not
 * where the log ends a moment later, which may hold another process's append the fold never saw.
 */
async function foldFrom(dir: string, start: Ledger | undefined, scan: (fold: LedgerFold) => Promise<ScanResult>): Promise<Ledger | undefined> {
  const fold = idleFolds.pop() ?? new LedgerFold();
  fold.begin(start);
  try {
    const { end } = await scan(fold);
    const l = fold.result();
    if (l) markLogEnd(dir, l, end);
    return l;
  } finally {
    fold.begin(undefined);
    idleFolds.push(fold);
  }
}

/**
 * Records in the ledger where its fold of the log ends, from where the fold's read ended: in
 * events.jsonl, its inode and that byte; in a rotated file (there was no events.jsonl then) or
 * nowhere, none (so all of an events.jsonl found later came after); and events.jsonl's line count,
 * which tells appends when to rotate.
 */
function markLogEnd(dir: string, ledger: Ledger, end: ReadEnd | undefined): void {
  const file = path.join(dir, EVENTS_FILE);
  ledger.eventLines = countLines(file);
  const inLog = end?.file === file ? end : undefined;
  ledger.eventBytes = inLog?.bytes ?? 0;
  if (inLog) ledger.eventIno = inLog.ino;
  else delete ledger.eventIno;
}

/** The ledger taken as it stands at the log's end now: for when its own end of the log is lost. */
export function anchorAtLogEnd(dir: string, ledger: Ledger): void {
  const file = path.join(dir, EVENTS_FILE);
  const st = fs.statSync(file, { throwIfNoEntry: false });
  markLogEnd(dir, ledger, st && { file, ino: st.ino, bytes: st.size });
}

/** A new session's ledger starts where the one before it ended in the log (nothing before it: at 0). */
export function continueLogEnd(ledger: Ledger, prev: Ledger | undefined): void {
  ledger.eventBytes = prev ? prev.eventBytes : 0;
  if (prev?.eventIno !== undefined) ledger.eventIno = prev.eventIno;
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
export async function catchUp(dir: string, ledger: Ledger): Promise<Ledger> {
  const parts = partsBeyond(dir, ledger);
  if (parts === undefined || parts.length === 0) return ledger;
  return (await foldFrom(dir, ledger, (fold) => scanLog(dir, parts, fold)))!;
}

/** Passes every line to a fold in full, except the events already counted. */
class FoldExcept implements EventScanner {
  constructor(private readonly fold: LedgerFold, private readonly counted: ReadonlySet<string>) {}
  event(e: AlfredEvent): void {
    if (!this.counted.has(e.id)) this.fold.event(e);
  }
}

/**
 * Marks the ledger's end of the log after its own batch was appended. The common case costs nothing:
 * the batch landed right at the ledger's end and nothing else was written around it. Otherwise
 * another process wrote meanwhile (two holders of the lock after a takeover of a dead holder's lock),
 * a torn line was ended, or the log was rotated: everything beyond the end the ledger had before the
 * batch is folded, except the batch's own events (`own`, already counted).
 */
export async function settleAppend(dir: string, ledger: Ledger, appended: AppendedEvents, own: readonly AlfredEvent[]): Promise<Ledger> {
  const { write, rotated, lines } = appended;
  if (!write) return ledger;
  const fromLedgerEnd = ledger.eventIno === undefined ? ledger.eventBytes === 0 && write.before === 0 : ledger.eventIno === write.ino;
  if (!rotated && fromLedgerEnd && write.before === ledger.eventBytes && write.after === write.before + write.bytes) {
    ledger.eventBytes = write.after;
    ledger.eventIno = write.ino;
    ledger.eventLines = lines;
    return ledger;
  }
  const parts = partsBeyond(dir, ledger);
  if (parts === undefined) {
    anchorAtLogEnd(dir, ledger); // its end of the log is gone (removed or rewritten by hand)
    return ledger;
  }
  const counted = new Set(own.map((e) => e.id));
  return (await foldFrom(dir, ledger, (fold) => scanLog(dir, parts, new FoldExcept(fold, counted))))!;
}
