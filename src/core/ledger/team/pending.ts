/**
 * The local team ledger: charges and audit events made while the database was unreachable, one JSON
 * line each in the state folder (a journal, base/fs/journal.ts), replayed when it returns. Every charge
 * keeps its id, and the database inserts an id once: nothing is lost or counted twice.
 */
import { Journal } from '../../base/fs/journal';
import type { TeamChargeRow, TeamEventRow } from './rows';

const journal = new Journal<PendingLine>('team-pending');
export const PENDING_FILE = journal.file;

export type PendingLine = { charge: TeamChargeRow } | { event: TeamEventRow };

export function appendPending(dir: string, lines: readonly PendingLine[]): void {
  journal.append(dir, lines);
}

export function hasPending(dir: string): boolean {
  return journal.has(dir);
}

export interface PendingBatch {
  charges: TeamChargeRow[];
  events: TeamEventRow[];
  /** Removes the replayed files: call once the database holds them. */
  done(): void;
}

/** Takes what is waiting (the current file and any replay a failed attempt left). */
export function takePending(dir: string): PendingBatch {
  const { items, done } = journal.take(dir);
  const charges: TeamChargeRow[] = [];
  const events: TeamEventRow[] = [];
  for (const l of items as Array<Partial<{ charge: TeamChargeRow; event: TeamEventRow }>>) {
    if (l.charge) charges.push(l.charge);
    else if (l.event) events.push(l.event);
  }
  return { charges, events, done };
}
