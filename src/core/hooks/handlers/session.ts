import { resumeHandoff } from '../../handoff/resume';
import type { Role } from '../../roles/types';
import { passAnswer } from '../output';
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
  await harness.record([{ type: 'AgentSession', agentSession: input.sessionId ?? null, model: input.model ?? null, source: `hook:${event}` }]);
  return passAnswer(input.format, input.format === 'copilot-cli' ? 'sessionStart' : 'SessionStart', parts.join('\n\n'));
};

/** UserPromptSubmit: the prompt's size is recorded for the trace, never its text. */
export const userPromptSubmit: HookHandler = async (harness, input, event) => {
  const prompt = input.prompt ?? '';
  await harness.record([{ type: 'PromptSubmitted', agentSession: input.sessionId ?? null, chars: prompt.length, lines: prompt ? prompt.split('\n').length : 0, source: `hook:${event}` }]);
  return passAnswer(input.format, input.format === 'copilot-cli' ? 'userPromptSubmitted' : 'UserPromptSubmit');
};
