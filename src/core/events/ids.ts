/** Identifiers and timestamps for events and harness sessions. */
import { randomUUID } from 'node:crypto';

export function newEventId(): string {
  return randomUUID();
}

export function newSessionId(): string {
  return randomUUID();
}

/** ISO-8601 in UTC, the `ts` of every event. */
export function nowIso(date: Date = new Date()): string {
  return date.toISOString();
}
