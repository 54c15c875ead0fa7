/** The event log's records (ARCHITECTURE.md, The event log is the record): one JSON object a line. */

export const EVENT_TYPES = [
  'ToolCall', 'PolicyViolation', 'BudgetWarning', 'BudgetExhausted', 'BudgetReset', 'RoleChanged',
  'ModelFailover', 'PackSelected', 'ConfigWritten', 'CheckRun', 'CompletionRecorded', 'SpendWarning',
  'ShellExecution', 'HookError', 'ModelUsage',
  'OperationUnknown', 'OperationReconciled', 'AgentSession', 'PromptSubmitted', 'StopChecked',
  'AuthorityRequested', 'AuthorityDeclined', 'SubagentStarted', 'SubagentStopped', 'Compacted', 'NetworkRefused',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Every event has these; the payload's own fields sit beside them. */
export interface EventBase {
  id: string;
  /** ISO-8601 time. */
  ts: string;
  type: EventType;
  /** Harness session id (the budget window). */
  session: string;
  role: string;
}

export type AlfredEvent = EventBase & Record<string, unknown>;

/** What a caller provides; id, ts, session and role are filled in by the log. */
export type NewEvent = { type: EventType } & Record<string, unknown>;

/** A line of the log that could not be read; reported, never fatal. */
export type { CorruptLine } from '../fs/jsonLines';
