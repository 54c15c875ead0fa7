/**
 * The small pieces of the harness that records need (operations, handoffs, completion records):
 * who acts now and where events go. Each of those modules declares the part it uses.
 */
import type { EventType } from './events/types';

/** Who acts now. */
export interface Actor {
  /** The active role's name. */
  role: string;
  /** Its budget session; null before the role's first charge. */
  session: string | null;
}

/** Appends events of other capabilities (CheckRun, OperationUnknown, …) to the log, as Harness.record does. */
export type RecordEvents = (events: Array<{ type: EventType } & Record<string, unknown>>) => Promise<unknown>;
