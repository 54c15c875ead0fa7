/** The team budgets' word on a call the gate allowed, decided under the personal ledger's lock (ledger/govern.ts). */
import type { ToolCall } from '../../rules/policy/toolCall';
import type { GateDecision } from '../../rules/vocabulary/types';
import type { TeamLedger } from './teamLedger';

/** The team ledger a harness opened, or why the one the user asked for could not be opened. */
export interface TeamOpened {
  team: TeamLedger | undefined;
  problem: string | undefined;
}

/** The team budgets a call falls under decide after the gate allowed it; a misconfigured team ledger refuses all but ctx_session. */
export async function teamDecide(opened: TeamOpened, role: string, call: ToolCall, d: GateDecision, model: string | undefined): Promise<GateDecision> {
  const refuse = (reason: string): GateDecision => ({ ...d, allowed: false, shellCharge: 0, code: 'budget-exhausted', reason });
  if (!opened.team) return call.name === 'ctx_session' ? d : refuse(`The team ledger is misconfigured: ${opened.problem}`);
  const v = await opened.team.authorize({ role, tool: call.name, shell: d.shellCharge, exempt: call.name === 'ctx_session', ...(model ? { model } : {}) });
  return v.allowed ? d : refuse(v.reason);
}
