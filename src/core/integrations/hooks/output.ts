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
export function denyAnswer(format: HookFormat, event: string, reason: string, agent?: HookAgent): HookAnswer {
  // Gemini CLI reads only the top-level decision (`deny` or `block`) and its reason.
  if (agent === 'gemini') return { stdout: JSON.stringify({ decision: 'deny', reason }), exitCode: 0 };
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
  // Gemini CLI reads a rewritten input as hookSpecificOutput.tool_input (passAnswer).
  if (agent === 'gemini') return { stdout: JSON.stringify({ decision: 'ask', reason, systemMessage: reason, ...(updatedInput ? { hookSpecificOutput: { tool_input: updatedInput } } : {}) }), exitCode: 0 };
  return { stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: event, permissionDecision: 'ask', permissionDecisionReason: reason, ...(updatedInput ? { updatedInput } : {}) } }), exitCode: 0 };
}

/**
 * An allowed call. Alfred does not answer `allow`: that would also skip the agent's own
 * confirmation of, say, a terminal command. It lets the agent's usual approval flow go on,
 * adding context (the budget line, once per crossing) when there is some, and the rewritten input (a
 * shell command in the kernel sandbox) in the field the agent reads, each applied without a decision:
 * VS Code's and Claude Code's `updatedInput` (which replaces the whole input; both still run their own
 * permission check on the rewritten command), the Copilot CLI's top-level `modifiedArgs`, Gemini CLI's
 * `hookSpecificOutput.tool_input`. Codex applies a rewrite only with `allow`, so its rewrite carries one
 * (and nothing else does).
 */
export function passAnswer(format: HookFormat, event: string, additionalContext?: string, rewritten?: Record<string, unknown>, agent?: HookAgent): HookAnswer {
  if (!additionalContext && !rewritten) return { stdout: '{}', exitCode: 0 };
  // Gemini CLI takes a rewritten input as hookSpecificOutput.tool_input (it ignores updatedInput).
  if (agent === 'gemini') return { stdout: JSON.stringify({ hookSpecificOutput: { ...(rewritten ? { tool_input: rewritten } : {}), ...(additionalContext ? { additionalContext } : {}) } }), exitCode: 0 };
  if (format === 'copilot-cli') return { stdout: JSON.stringify({ ...(additionalContext ? { additionalContext } : {}), ...(rewritten ? { modifiedArgs: rewritten } : {}) }), exitCode: 0 };
  // Codex applies a rewrite only with `allow` and rejects the answer otherwise; an `allow` is how it
  // carries a rewrite, not an approval (codexSandboxed in handlers/toolUse.ts).
  const allow = rewritten && agent === 'codex' ? { permissionDecision: 'allow' } : {};
  const body = { hookSpecificOutput: { hookEventName: event, ...allow, ...(rewritten ? { updatedInput: rewritten } : {}), ...(additionalContext ? { additionalContext } : {}) } };
  return { stdout: JSON.stringify(body), exitCode: 0 };
}

/**
 * Keeps an agent working (Stop). VS Code reads `hookSpecificOutput.decision`; Claude Code and the
 * Copilot CLI read the top-level `decision` and `reason`: one answer carries both. Codex refuses a
 * Stop answer with fields it does not know, so it gets the top-level ones alone.
 */
export function blockStopAnswer(reason: string, agent?: HookAgent): HookAnswer {
  // Gemini CLI's AfterAgent: a top-level block sends the reason back as the next prompt.
  const body = agent === 'codex' || agent === 'gemini'
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
