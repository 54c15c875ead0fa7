import { randomUuid } from '../crypto/random';
/** Identifiers and timestamps for events and harness sessions. */

export function newEventId(): string {
  return randomUuid();
}

export function newSessionId(): string {
  return randomUuid();
}

/** ISO-8601 in UTC, the `ts` of every event. */
export function nowIso(date: Date = new Date()): string {
  return date.toISOString();
}
