import type { AlfredEvent } from './types';

const text = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/** One line a person can read, for the dashboard's feed and `alfred events`. */
export function summarizeEvent(e: AlfredEvent): string {
  switch (e.type) {
    case 'ToolCall': {
      const charge = (e.charge ?? {}) as { tokens?: number; shell?: number; costUsd?: number };
      if (e.phase === 'result') return `${text(e.tool)} → ${charge.tokens ?? 0} tokens${charge.costUsd ? `, $${charge.costUsd.toFixed(4)}` : ''}`;
      return `${text(e.tool)} ${e.decision === 'deny' ? 'refused' : 'allowed'}${e.source ? ` (${text(e.source)})` : ''}${charge.shell ? ', 1 shell call' : ''}`;
    }
    case 'PolicyViolation':
      return `${text(e.tool)}: ${text(e.reason)}`;
    case 'BudgetWarning':
    case 'BudgetExhausted':
      return `${text(e.dimension)} ${text(e.used)}/${text(e.limit)} (${text(e.percent)}%)`;
    case 'RoleChanged':
      return `${text(e.from) || '—'} → ${text(e.to)}`;
    case 'BudgetReset':
      return `new session (${text(e.reason)})`;
    case 'ShellExecution':
      return `${text(e.command)} → exit ${text(e.exitCode)}`;
    case 'CheckRun':
      return `${text(e.check)}: ${text(e.status)}${e.exitCode === null || e.exitCode === undefined ? '' : ` (exit ${text(e.exitCode)})`}`;
    case 'CompletionRecorded':
      return `${e.accepted ? 'accepted' : 'not accepted'}: ${text(e.reason)}`;
    case 'OperationUnknown':
      return `${text(e.tool)} ${text(e.operation).slice(0, 8)}: ${text(e.note)}`;
    case 'OperationReconciled':
      return `${text(e.tool)} ${text(e.operation).slice(0, 8)} → ${text(e.state)} (by ${text(e.by)})`;
    case 'ModelUsage':
      return `${text(e.model)}: ${text(e.inputTokens)} in, ${text(e.outputTokens)} out${typeof e.costUsd === 'number' ? `, $${e.costUsd.toFixed(4)}` : ''}`;
    case 'ModelFailover':
      return `${text(e.profile)}: ${text(e.from)} → ${text(e.to)} (${e.reason === 'unavailable' ? 'unavailable' : `${text(e.failures)} failures`})`;
    case 'PackSelected':
      return `${text(e.pack)} (${text(e.reason)})`;
    case 'SpendWarning':
      return `${text(e.level)}: $${typeof e.spentUsd === 'number' ? e.spentUsd.toFixed(2) : '?'} of $${typeof e.capUsd === 'number' ? e.capUsd.toFixed(2) : '?'} today (${text(e.percent)}%)`;
    default: {
      const { id: _i, ts: _t, type: _ty, session: _s, role: _r, ...rest } = e;
      return JSON.stringify(rest).slice(0, 160);
    }
  }
}
