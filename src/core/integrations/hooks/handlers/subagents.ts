/**
 * SubagentStart, SubagentStop and PreCompact: recorded with the agent session that started them, so
 * a sub-agent's work (and, for Claude Code, its transcript's usage) counts for its parent session.
 * The limit on sub-agents running at once is the gate's, at the task tool that starts one; these
 * events only inform, they never block.
 */
import type { HookInput } from '../input';
import { passAnswer } from '../output';
import type { HookHandler } from './types';

function agentOf(input: HookInput): Record<string, unknown> {
  const raw = input.raw ?? {};
  return {
    ...(typeof raw.agent_id === 'string' ? { agentId: raw.agent_id } : {}),
    ...(typeof raw.agent_type === 'string' ? { agentType: raw.agent_type } : {}),
  };
}

const recorded = (type: 'SubagentStarted' | 'SubagentStopped' | 'Compacted'): HookHandler => async (harness, input, event) => {
  await harness.record([{ type, agentSession: input.sessionId ?? null, ...agentOf(input), source: `hook:${event}` }]);
  return passAnswer(input.format, event);
};

export const subagentStart = recorded('SubagentStarted');
export const subagentStop = recorded('SubagentStopped');
export const preCompact = recorded('Compacted');
