/**
 * The ledger: `ledger.json` in the state folder, the current harness session's usage. Its shape and
 * validation, and reading and writing the file. Every change goes through a transaction
 * (ledgerStore.ts), mirrored by events in the log so the ledger can be rebuilt from it (ledgerFold.ts).
 */
import type { TerminalClaim } from './terminalClaims';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DIMENSIONS, type Dimension, type Signal, type Usage } from '../rules/budget/types';
import { newSessionId, nowIso } from '../base/events/ids';
import { checkedText, readCheckedJson, writeCheckedText } from '../base/fs/checkedJson';

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
  /** Fingerprints of the latest tool calls, newest last (rules/policy/repetition.ts: the runaway guard). */
  recentCalls?: string[];
  /** Sub-agents started by an allowed task tool whose PostToolUse has not come yet. */
  subagentsRunning?: number;
  /**
   * A threshold was crossed (by any charge: a hook's, a measured request's, a terminal's) and no
   * hook has given an agent the budget line since (ledger/govern.ts, `settle` and `takeCrossing`).
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
export const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;

/** The ledger when `value` is one (odd optional fields dropped), else what is wrong with it. */
export function validateLedger(value: unknown): Ledger | string {
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

/**
 * The text of the ledger this process last wrote in each state folder, and whether it is on disk yet
 * (a write handed to `later`). A read that finds the file holding exactly that text takes the ledger
 * from it without checking the file again; a read of a ledger not yet on disk gets it from here.
 */
const lastWritten = new Map<string, Written>();
/** A ledger this process wrote: as compact JSON (a copy made cheaply), its file's text once written. */
interface Written {
  json: string;
  text?: string;
  onDisk: boolean;
}

/** A ledger from a text this process wrote (checkedText of a valid ledger): parsed, its check dropped. */
function ownLedger(text: string): Ledger {
  const { check: _check, ...ledger } = JSON.parse(text) as Ledger & { check: string };
  return ledger;
}

export function readLedgerFile(dir: string): LedgerFile {
  const file = path.join(dir, LEDGER_FILE);
  const own = lastWritten.get(file);
  if (own && !own.onDisk) return { ledger: JSON.parse(own.json) as Ledger };
  if (own?.text !== undefined) {
    let text: string | undefined;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      text = undefined; // read below, which tells why
    }
    if (text === own.text) return { ledger: ownLedger(text) };
  }
  const read = readCheckedJson(file);
  if ('missing' in read) return {};
  if ('problem' in read) return { problem: `${file}: ${read.problem}` };
  const checked = validateLedger(read.value);
  return typeof checked === 'string' ? { problem: `${file}: ${checked}` } : { ledger: checked };
}

/** The ledger as on disk, without the lock (for display); undefined when missing or corrupt. */
export function readLedger(dir: string): Ledger | undefined {
  return readLedgerFile(dir).ledger;
}

/**
 * Written in place with a checksum (base/fs/checkedJson.ts): this runs on every tool call, and readers
 * without the lock (status bars, `alfred budget`) tell a half-written file by its checksum. No fsync:
 * after a crash or a power loss the ledger is rebuilt from the log. With `later` (lock.ts,
 * deferUntilRelease), the write is handed over when it takes it: done once the hook server's answer
 * is out, and always before the lock is let go; meanwhile this process's reads get the new ledger.
 */
export function writeLedger(dir: string, ledger: Ledger, later?: (write: () => void) => boolean): void {
  const file = path.join(dir, LEDGER_FILE);
  // A copy (the caller goes on with its ledger); the file's text is made with the write, after the answer.
  const written: Written = { json: JSON.stringify(ledger), onDisk: false };
  lastWritten.set(file, written);
  const write = () => {
    // A newer ledger of this process supersedes this one (and is written after it, if not already).
    if (lastWritten.get(file) !== written) return;
    try {
      written.text = checkedText(JSON.parse(written.json) as Ledger);
      writeCheckedText(file, written.text);
      written.onDisk = true;
    } catch (err) {
      lastWritten.delete(file); // the file is read again from now on, and caught up with the log
      throw err;
    }
  };
  if (!later?.(write)) write();
}
