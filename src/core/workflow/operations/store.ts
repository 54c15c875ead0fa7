/**
 * Operations (ARCHITECTURE.md: Operations, handoffs and traces): every `exec` or `write-external` call gets an
 * id, persisted with its approved arguments before it starts, in `<stateDir>/operations.jsonl`
 * (one line per state change, under the state lock). States: pending → running → succeeded |
 * failed | unknown. A timeout, a closed window or a crash leaves `unknown`, never `failed`, and an
 * unknown operation is never re-run by Alfred: the user looks and reconciles it.
 */
import * as path from 'node:path';
import { atomicWrite } from '../../base/fs/atomicWrite';
import { appendJsonLines, readJsonLines, type CorruptLine } from '../../base/fs/jsonLines';
import { withLock } from '../../base/state/lock';
import { randomUuid } from '../../base/crypto/random';

export const OPERATIONS_FILE = 'operations.jsonl';
/** Past this many lines the file is compacted to the latest state of each operation. */
export const COMPACT_AT_LINES = 5000;
/** Finished operations kept by a compaction (unfinished ones are always kept). */
export const KEEP_FINISHED = 500;

export type OperationState = 'pending' | 'running' | 'succeeded' | 'failed' | 'unknown';
export const FINISHED: readonly OperationState[] = ['succeeded', 'failed'];

export interface Operation {
  id: string;
  tool: string;
  effect: string;
  /** The arguments as approved by the gate. */
  args: Record<string, unknown>;
  source: string;
  role: string;
  session: string | null;
  /** The process that runs it: a running operation whose process is gone was interrupted. */
  pid: number;
  state: OperationState;
  createdAt: string;
  updatedAt: string;
  exitCode?: number | null;
  /** Why it ended in this state (a timeout, a crash, the user's reconciliation). */
  note?: string;
  reconciledBy?: string;
}

type Line = { op: string; ts: string; state: OperationState } & Partial<Operation>;

export function operationsPath(stateDir: string): string {
  return path.join(stateDir, OPERATIONS_FILE);
}

export interface OperationsRead {
  /** Latest state of each operation, oldest first. */
  operations: Operation[];
  corrupt: CorruptLine[];
  lines: number;
}

/** Folds the log into each operation's latest state; readers take no lock. */
export function readOperations(stateDir: string): OperationsRead {
  const byId = new Map<string, Operation>();
  // Folded line by line: a state change needs the operation its earlier lines created.
  const { records, corrupt } = readJsonLines(operationsPath(stateDir), (value) => {
    const line = value as Line | null;
    if (!line || typeof line.op !== 'string' || typeof line.state !== 'string') return 'not an operation record';
    const { op, ts, ...change } = line;
    const prev = byId.get(op);
    if (!prev && typeof line.tool !== 'string') return `state change of unknown operation ${op}`;
    byId.set(op, { ...(prev ?? { createdAt: ts }), ...change, id: op, updatedAt: ts } as Operation);
    return line;
  });
  return { operations: [...byId.values()], corrupt, lines: records.length + corrupt.length };
}

function appendLines(stateDir: string, lines: readonly Line[]): void {
  appendJsonLines(operationsPath(stateDir), lines);
}

/** Rewrites the file with one line per operation, dropping the oldest finished ones. */
function compact(stateDir: string, operations: readonly Operation[]): void {
  const finished = operations.filter((o) => FINISHED.includes(o.state));
  const dropped = new Set(finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED)).map((o) => o.id));
  const kept = operations.filter((o) => !dropped.has(o.id));
  atomicWrite(operationsPath(stateDir), kept.map(({ id, updatedAt, ...rest }) => JSON.stringify({ op: id, ts: updatedAt, ...rest }) + '\n').join(''));
}

/** What the caller says of an operation; its id, process, state and times are the store's. */
export type NewOperation = Pick<Operation, 'tool' | 'effect' | 'args' | 'source' | 'role' | 'session'>;

/** Persists a new operation as `pending`, with its arguments, before anything runs. */
export async function createOperation(stateDir: string, op: NewOperation, pid = process.pid): Promise<Operation> {
  const ts = new Date().toISOString();
  const operation: Operation = { id: randomUuid(), ...op, pid, state: 'pending', createdAt: ts, updatedAt: ts };
  await withLock(stateDir, () => {
    const { operations, lines } = readOperations(stateDir);
    if (lines >= COMPACT_AT_LINES) compact(stateDir, operations);
    const { id, updatedAt: _u, ...rest } = operation;
    appendLines(stateDir, [{ op: id, ts, ...rest }]);
  });
  return operation;
}

export class OperationStateError extends Error {}

/** Moves an operation to `state`; refuses moves out of a finished state and unknown ids. */
export async function updateOperation(
  stateDir: string, id: string, state: OperationState, extra: { exitCode?: number | null; note?: string; reconciledBy?: string } = {},
  allowedFrom?: readonly OperationState[],
): Promise<Operation> {
  return withLock(stateDir, () => {
    const current = readOperations(stateDir).operations.find((o) => o.id === id);
    if (!current) throw new OperationStateError(`No operation ${id} in ${operationsPath(stateDir)}.`);
    const from = allowedFrom ?? (['pending', 'running', 'unknown'] as const);
    if (!from.includes(current.state)) throw new OperationStateError(`Operation ${id} is ${current.state}; it cannot become ${state}.`);
    const ts = new Date().toISOString();
    appendLines(stateDir, [{ op: id, ts, state, ...extra }]);
    return { ...current, state, ...extra, updatedAt: ts };
  });
}
