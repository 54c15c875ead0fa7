import { resumeHandoff } from '../../../workflow/handoff/resume';
import type { Role } from '../../../rules/roles/types';
import { blockPromptAnswer, passAnswer } from '../output';
import type { HookHandler } from './types';

function describeRole(role: Role): string {
  const allowed = role.tools.allowed ? role.tools.allowed.join(', ') || 'none' : 'every tool';
  const denied = role.tools.denied.join(', ') || 'none';
  return [
    `Alfred governs this session under role ${role.name}: ${role.description}`,
    `Tools allowed: ${allowed}. Denied: ${denied}. Shell policy: ${role.shellPolicy}.`,
    `Limits: ${role.limits.maxContextTokens} context tokens, ${role.limits.maxShellInvocations} shell calls, $${role.limits.maxCostUsd.toFixed(2)}; warning at ${role.limits.warnAtPercent}%, refusals at ${role.limits.blockAtPercent}%.`,
  ].join('\n');
}

/** SessionStart: the role, its limits, the budget line and, when one was written, the handoff as claims to check. */
export const sessionStart: HookHandler = async (harness, input, event) => {
  const { role } = harness.activeRole();
  const parts = [describeRole(role), harness.budget().line];
  const handoff = await resumeHandoff(harness).catch(() => undefined);
  if (handoff) parts.push(handoff.text);
  // `handoff`: whether this session was handed the progress handoff, for its Stop hook's fingerprint.
  await harness.record([{ type: 'AgentSession', agentSession: input.sessionId ?? null, model: input.model ?? null, handoff: handoff !== undefined, source: `hook:${event}` }]);
  return passAnswer(input.format, input.format === 'copilot-cli' ? 'sessionStart' : 'SessionStart', parts.join('\n\n'), undefined, input.agent);
};

/**
 * UserPromptSubmit: the prompt's size is recorded for the trace, never its text. With the budget
 * EXHAUSTED the prompt is stopped with the budget line and how to go on: the agent pauses (nothing
 * is lost), and a reset, a switch or a raised limit lets the next prompt through.
 */
export const userPromptSubmit: HookHandler = async (harness, input, event) => {
  const prompt = input.prompt ?? '';
  await harness.record([{ type: 'PromptSubmitted', agentSession: input.sessionId ?? null, chars: prompt.length, lines: prompt ? prompt.split('\n').length : 0, source: `hook:${event}` }]);
  const name = input.format === 'copilot-cli' ? 'userPromptSubmitted' : 'UserPromptSubmit';
  const budget = harness.budget();
  if (budget.status.signal === 'EXHAUSTED') {
    return blockPromptAnswer(name, `Alfred paused this agent: the budget of role ${budget.status.role} is exhausted. ${budget.line}\n`
      + 'To go on: reset the budget (Alfred: Reset Budget), switch role (Alfred: Switch Role) or raise the role\'s limit, then send the prompt again.');
  }
  return passAnswer(input.format, name);
};
