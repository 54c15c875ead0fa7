/**
 * The life of an operation around the call that runs it, the startup sweep that turns interrupted
 * ones `unknown`, and the user's reconciliation of those. Pure core: callers pass the harness.
 */
import type { Actor, RecordEvents } from '../../base/actor';
import { createOperation, readOperations, updateOperation, type Operation, type OperationState } from './store';
import { processAlive } from '../../base/processAlive';

/** What operations use of the harness: the state folder, who acts now, the event log. */
export interface OperationsHost {
  readonly stateDir: string;
  actor(): Actor;
  record: RecordEvents;
}

/** The environment variable a child process finds its operation id in. */
export const OPERATION_ENV = 'ALFRED_OPERATION_ID';

/** What an exec result says about its effect: only a real exit code is a verdict. */
export function stateFromResult(data: { exitCode?: unknown; timedOut?: unknown; cancelled?: unknown; signal?: unknown }): { state: OperationState; note?: string; exitCode: number | null } {
  const exitCode = typeof data.exitCode === 'number' ? data.exitCode : null;
  if (data.timedOut === true) return { state: 'unknown', exitCode, note: 'timed out: stopped part-way, its effect is unknown' };
  if (data.cancelled === true) return { state: 'unknown', exitCode, note: 'cancelled: stopped part-way, its effect is unknown' };
  if (exitCode === null) return { state: 'unknown', exitCode, note: `ended without an exit code${data.signal ? ` (signal ${String(data.signal)})` : ''}` };
  return { state: exitCode === 0 ? 'succeeded' : 'failed', exitCode };
}

export interface OperationRun {
  id: string;
  env: Record<string, string>;
}

/**
 * Runs `fn` as an operation: persisted `pending` with its arguments, `running` just before `fn`
 * starts, then the state its result shows. A throw before anything ran is `failed`.
 */
export async function runOperation<T extends { data: Record<string, unknown> }>(
  harness: OperationsHost, call: { tool: string; effect: string; args: Record<string, unknown>; source: string },
  fn: (op: OperationRun) => Promise<T>,
): Promise<T> {
  const op = await createOperation(harness.stateDir, { ...call, ...harness.actor() });
  await updateOperation(harness.stateDir, op.id, 'running', {}, ['pending']);
  let result: T;
  try {
    result = await fn({ id: op.id, env: { [OPERATION_ENV]: op.id } });
  } catch (err) {
    // Thrown before a process existed (bad folder, spawn failure): nothing ran.
    await updateOperation(harness.stateDir, op.id, 'failed', { note: (err as Error).message }, ['running']);
    throw err;
  }
  const end = stateFromResult(result.data);
  await updateOperation(harness.stateDir, op.id, end.state, { exitCode: end.exitCode, ...(end.note ? { note: end.note } : {}) }, ['running']);
  if (end.state === 'unknown') await harness.record([{ type: 'OperationUnknown', operation: op.id, tool: call.tool, note: end.note }]);
  return result;
}

/**
 * At startup: `running` (and never-started `pending`) operations whose process is gone became
 * `unknown` — the window closed or Alfred crashed while they ran. Other live windows keep theirs.
 */
export async function sweepInterrupted(harness: OperationsHost, isAlive: (pid: number) => boolean = processAlive): Promise<Operation[]> {
  const stale = readOperations(harness.stateDir).operations.filter((o) => (o.state === 'running' || o.state === 'pending') && (o.pid === process.pid ? false : !isAlive(o.pid)));
  const swept: Operation[] = [];
  for (const o of stale) {
    const note = o.state === 'running'
      ? 'interrupted: the window closed or Alfred stopped while it ran; its effect is unknown'
      : 'interrupted before it was seen to start; it may not have run';
    try {
      swept.push(await updateOperation(harness.stateDir, o.id, 'unknown', { note }, [o.state]));
    } catch {
      // another window swept it first
    }
  }
  if (swept.length > 0) await harness.record(swept.map((o) => ({ type: 'OperationUnknown' as const, operation: o.id, tool: o.tool, note: o.note })));
  return swept;
}

/** The user looked: an unknown operation is marked as it really ended. Never re-runs it. */
export async function reconcileOperation(harness: OperationsHost, id: string, state: 'succeeded' | 'failed', by: string, note?: string): Promise<Operation> {
  const op = await updateOperation(harness.stateDir, id, state, { reconciledBy: by, note: note ?? `reconciled by ${by}` }, ['unknown']);
  await harness.record([{ type: 'OperationReconciled', operation: id, tool: op.tool, state, by }]);
  return op;
}

/** Operations the user must look at, newest first. */
export function unknownOperations(stateDir: string): Operation[] {
  return readOperations(stateDir).operations.filter((o) => o.state === 'unknown').reverse();
}

/** Not finished: pending, running or unknown, newest first. */
export function openOperations(stateDir: string): Operation[] {
  return readOperations(stateDir).operations.filter((o) => o.state !== 'succeeded' && o.state !== 'failed').reverse();
}

/** The latest exec operation: the last command and how it ended. */
export function lastCommand(stateDir: string): Operation | undefined {
  const ops = readOperations(stateDir).operations.filter((o) => o.effect === 'exec');
  return ops.reduce<Operation | undefined>((a, o) => (!a || o.createdAt >= a.createdAt ? o : a), undefined);
}

/** A one-line description for lists: `ctx_shell: npm test (exit 1)`. */
export function describeOperation(o: Operation): string {
  const what = typeof o.args.command === 'string' ? o.args.command : JSON.stringify(o.args).slice(0, 120);
  const end = o.exitCode !== undefined && o.exitCode !== null ? ` (exit ${o.exitCode})` : '';
  return `${o.tool}: ${what}${end}`;
}
