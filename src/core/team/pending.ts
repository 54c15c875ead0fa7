/**
 * The local team ledger: charges and audit events made while the database was unreachable, one JSON
 * line each in the state folder, replayed when it returns. A replay takes the file by renaming it,
 * so two processes never replay the same lines; a replay that fails leaves its file for the next.
 * Every charge keeps its id, and the database inserts an id once: nothing is lost or counted twice.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TeamChargeRow, TeamEventRow } from './rows';

export const PENDING_FILE = 'team-pending.jsonl';
const REPLAY = /^team-pending\.[0-9a-f-]+\.replay$/;

export type PendingLine = { charge: TeamChargeRow } | { event: TeamEventRow };

export function appendPending(dir: string, lines: readonly PendingLine[]): void {
  if (lines.length === 0) return;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // One write with O_APPEND: lines of concurrent writers never interleave.
  fs.appendFileSync(path.join(dir, PENDING_FILE), lines.map((l) => JSON.stringify(l) + '\n').join(''), { mode: 0o600 });
}

export function hasPending(dir: string): boolean {
  try {
    return fs.readdirSync(dir).some((f) => f === PENDING_FILE || REPLAY.test(f));
  } catch {
    return false;
  }
}

export interface PendingBatch {
  charges: TeamChargeRow[];
  events: TeamEventRow[];
  /** Removes the replayed files: call once the database holds them. */
  done(): void;
}

/** Takes what is waiting (the current file and any replay a failed attempt left). */
export function takePending(dir: string): PendingBatch {
  try {
    fs.renameSync(path.join(dir, PENDING_FILE), path.join(dir, `team-pending.${randomUUID()}.replay`));
  } catch { /* nothing new, or another process took it */ }
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir).filter((f) => REPLAY.test(f));
  } catch { /* no state folder yet */ }
  const charges: TeamChargeRow[] = [];
  const events: TeamEventRow[] = [];
  const files: string[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue; // replayed and removed by another process meanwhile
    }
    files.push(file);
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const l = JSON.parse(line) as Partial<{ charge: TeamChargeRow; event: TeamEventRow }>;
        if (l.charge) charges.push(l.charge);
        else if (l.event) events.push(l.event);
      } catch { /* a torn last line of a killed writer: its charge was never acknowledged */ }
    }
  }
  return { charges, events, done: () => files.forEach((f) => fs.rmSync(f, { force: true })) };
}
