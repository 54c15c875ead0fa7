/** Hook answers in each agent's format (shared notes: Copilot in VS Code, Claude Code, Copilot CLI). */
import type { HookAgent, HookFormat } from './input';

export interface HookAnswer {
  /** JSON to print on stdout ('' prints nothing). */
  stdout: string;
  exitCode: number;
}

/**
 * A refusal. VS Code and Claude Code read `hookSpecificOutput.permissionDecision`; the Copilot CLI
 * reads the top-level fields. Exit 0: the JSON carries the decision.
 */
export function denyAnswer(format: HookFormat, event: string, reason: string): HookAnswer {
  const body = format === 'copilot-cli'
    ? { permissionDecision: 'deny', permissionDecisionReason: reason }
    : { hookSpecificOutput: { hookEventName: event, permissionDecision: 'deny', permissionDecisionReason: reason } };
  return { stdout: JSON.stringify(body), exitCode: 0 };
}

/**
 * A call the role lets run only with the user's word ([mcp] ... = "ask", [tools] ask): VS Code and
 * Claude Code ask the user themselves. The Copilot CLI's hooks cannot ask, nor (as far as its released
 * hooks go) can Codex's, so there it is refused, saying why: an "ask" an agent ignored would be a
 * silent allow. `updatedInput`: a terminal command rewritten into the kernel sandbox, which a yes
 * must not take out of it.
 */
export function askAnswer(format: HookFormat, event: string, reason: string, agent?: HookAgent, updatedInput?: Record<string, unknown>): HookAnswer {
  if (format === 'copilot-cli' || agent === 'codex') return denyAnswer(format, event, `${reason} This agent's hooks cannot ask the user, so Alfred refuses it.`);
  return { stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: event, permissionDecision: 'ask', permissionDecisionReason: reason, ...(updatedInput ? { updatedInput } : {}) } }), exitCode: 0 };
}

/**
 * An allowed call. Alfred does not answer `allow`: that would also skip the agent's own
 * confirmation of, say, a terminal command. It lets the agent's usual approval flow go on,
 * adding context (the budget line, once per crossing) when there is some, and the rewritten input (a terminal
 * command in the kernel sandbox): VS Code applies `updatedInput` without a decision, replacing the
 * whole input after checking it against the tool's schema.
 */
export function passAnswer(format: HookFormat, event: string, additionalContext?: string, updatedInput?: Record<string, unknown>): HookAnswer {
  if (!additionalContext && !updatedInput) return { stdout: '{}', exitCode: 0 };
  const body = format === 'copilot-cli'
    ? { additionalContext }
    : { hookSpecificOutput: { hookEventName: event, ...(updatedInput ? { updatedInput } : {}), ...(additionalContext ? { additionalContext } : {}) } };
  return { stdout: JSON.stringify(body), exitCode: 0 };
}

/**
 * Keeps an agent working (Stop). VS Code reads `hookSpecificOutput.decision`; Claude Code and the
 * Copilot CLI read the top-level `decision` and `reason`: one answer carries both. Codex refuses a
 * Stop answer with fields it does not know, so it gets the top-level ones alone.
 */
export function blockStopAnswer(reason: string, agent?: HookAgent): HookAnswer {
  const body = agent === 'codex'
    ? { decision: 'block', reason }
    : { decision: 'block', reason, hookSpecificOutput: { hookEventName: 'Stop', decision: 'block', reason } };
  return { stdout: JSON.stringify(body), exitCode: 0 };
}

/**
 * Stops a prompt before the model sees it. Claude Code and the Copilot CLI read the top-level
 * `decision`/`reason`; VS Code and Claude Code both honour `continue: false` with a `stopReason`,
 * shown to the user.
 */
export function blockPromptAnswer(event: string, reason: string): HookAnswer {
  return {
    stdout: JSON.stringify({ continue: false, stopReason: reason, decision: 'block', reason, hookSpecificOutput: { hookEventName: event, decision: 'block', reason } }),
    exitCode: 0,
  };
}

/** Lets an agent stop, with a note for the user when there is one. */
export function allowStopAnswer(systemMessage?: string): HookAnswer {
  return { stdout: systemMessage ? JSON.stringify({ systemMessage }) : '{}', exitCode: 0 };
}

/** The Copilot CLI's permissionRequest: refuse with a message, or leave the decision to the user. */
export function permissionAnswer(deny: string | undefined): HookAnswer {
  return { stdout: deny ? JSON.stringify({ behavior: 'deny', message: deny, interrupt: false }) : '{}', exitCode: 0 };
}
