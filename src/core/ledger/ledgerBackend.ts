/**
 * Where a state folder's ledger and event log live. The files in the folder are the default and need
 * nothing here: a folder no backend was chosen for runs on them (ledgerStore.ts), at the cost of one
 * map lookup. A process that opted in (ledger/pgLedger/open.ts, from the environment the user set)
 * chooses another backend for the folders it opens, and every transaction on them goes there.
 */
import type { AlfredEvent, NewEvent } from '../base/events/types';
import type { Ledger } from './ledgerFormat';

export interface LedgerBackend {
  /** What the backend is, for `alfred doctor` and problem messages. */
  readonly name: string;
  /** Where the ledger is kept, for `alfred doctor` (never a password). */
  readonly where: string;
  /** Why the backend cannot be used now (undefined: it can); `misconfigured`: it never will be as set. */
  problem(): Promise<{ reason: string; misconfigured: boolean } | undefined>;
  /** A transaction with the semantics of ledgerStore.ts's file transaction. */
  run<T>(dir: string, roleName: string, fn: TransactFn<T>, options?: RunOptions): Promise<TransactResult<T>>;
  /** Checks the backend's own event trail's hash chain, where it keeps one (`alfred events --verify`). */
  verifyChain?(): Promise<{ ok: true; rows: number; unchained: number } | { ok: false; seq: number; problem: string; rows: number }>;
  close(): Promise<void>;
}

export interface RunOptions {
  /** The transaction opens a new session, recorded as a BudgetReset with this reason. */
  resetReason?: string;
  /**
   * `fn` acts beyond the ledger (a team budget's charge): it runs once, on the backend's truth.
   * Otherwise a backend may run it again when a first run turned out to be on a stale copy.
   */
  effects?: boolean;
}

const chosen = new Map<string, LedgerBackend>();

/** Chooses the backend of a state folder for this process; undefined goes back to the files. */
export function useLedgerBackend(dir: string, backend: LedgerBackend | undefined): void {
  if (backend) chosen.set(dir, backend);
  else chosen.delete(dir);
}

export function ledgerBackendOf(dir: string): LedgerBackend | undefined {
  return chosen.get(dir);
}

/** What a transaction's function is told beyond the ledger. */
export interface TransactContext {
  /**
   * Set when the backend the user chose cannot be reached and the transaction runs on the state
   * folder's local copy: `failClosed` when the role's offline mode refuses calls meanwhile.
   */
  offline?: { reason: string; failClosed: boolean };
}

/** The files' context, and a backend's when it is reachable. */
export const ONLINE: TransactContext = Object.freeze({});

/** What a transaction gives back, on any backend. */
export interface TransactResult<T> {
  result: T;
  /** Every event written, in order, complete (id, ts, session, role): push these onto the bus. */
  events: AlfredEvent[];
  ledger: Ledger;
  /** Problems met and worked around (a corrupt ledger), for the caller to report. */
  problems: string[];
}

export type TransactFn<T> = (ledger: Ledger, context: TransactContext) => { events: NewEvent[]; result: T } | Promise<{ events: NewEvent[]; result: T }>;
