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
    default: {
      const { id: _i, ts: _t, type: _ty, session: _s, role: _r, ...rest } = e;
      return JSON.stringify(rest).slice(0, 160);
    }
  }
}
