import { chargeCall, decideCall } from '../../governedCall';
import type { Harness } from '../../harness';
import { shellQuote } from '../../sandbox/index';
import { toolCall, type ToolCall } from '../../policy/toolCall';
import type { HookInput } from '../input';
import { copilotExportOn } from '../../usage/copilotSpool';
import { askAnswer, denyAnswer, passAnswer, permissionAnswer } from '../output';
import type { HookHandler } from './types';

/**
 * The budget line is given to the agent as context once per crossing (WARNING or EXHAUSTED), at the
 * first tool hook after it, whichever charge crossed: every call would drown it. At EXHAUSTED the
 * refusal itself quotes the line, on every call.
 *
 * PreToolUse: the gate decides and charges a new shell invocation before it runs. A terminal command
 * of VS Code's own agent is rewritten to run in the kernel sandbox (protected paths read-only), the
 * one agent here that applies a hook's `updatedInput` without an `allow` (Claude Code and Codex need
 * `allow`, which would skip their own confirmations): theirs are guarded by parsing, and refused
 * under `sandbox = "required"`. So is a task's command (create_and_run_task writes the task into
 * tasks.json and runs it in a terminal of its own, outside the sandbox unless rewritten).
 */
export const preToolUse: HookHandler = async (harness, input, event) => {
  const name = input.format === 'copilot-cli' ? 'preToolUse' : 'PreToolUse';
  if (!input.tool) return denyAnswer(input.format, name, 'Alfred could not tell which tool this is (no tool_name in the hook input), so it refuses it.');
  const call = toolCall(input.tool, input.toolInput);
  const { command } = call;
  const rewritten = command !== undefined ? sandboxedInput(input, call, harness) : undefined;
  const sandboxed = rewritten?.line;
  const decided = await decideCall(harness, call, {
    source: `hook:${event}`, ...(input.model ? { model: input.model } : {}),
    ...(input.sessionId ? { agentSession: input.sessionId } : {}),
    // The command a terminal will show when it runs, so its end there is not charged a second time.
    ...(command !== undefined ? { terminalCommand: sandboxed ?? command, sandboxed: sandboxed !== undefined } : {}),
    announce: true,
  });
  if (!decided.allowed) return denyAnswer(input.format, name, `Alfred (role ${decided.refusal.details.role}): ${decided.refusal.details.reason ?? 'refused'}`);
  const { gate } = decided;
  if (gate.decision.confirm) return askAnswer(input.format, name, `Alfred (role ${gate.status.role}): ${gate.decision.confirm}`, input.agent, rewritten?.updatedInput);
  return passAnswer(input.format, name, gate.announce ? gate.line : undefined, rewritten?.updatedInput);
};

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * For VS Code's agent (not Claude Code or Codex through their own files), a shell tool's input with its
 * command as the sandbox's line: a terminal's `command`, or a task's `command` with its `args` quoted
 * into it (a shell task then, as create_and_run_task only makes). Undefined where there is none to
 * rewrite or no sandbox.
 */
function sandboxedInput(input: HookInput, call: ToolCall, harness: Harness): { line: string; updatedInput: Record<string, unknown> } | undefined {
  const args = call.input;
  if (input.format !== 'vscode' || input.agent !== undefined || call.category !== 'shell' || !isRecord(args)) return undefined;
  if (typeof args.command === 'string') {
    const line = sandboxLine(harness, args.command);
    return line === undefined ? undefined : { line, updatedInput: { ...args, command: line } };
  }
  const task = args.task;
  if (!isRecord(task) || typeof task.command !== 'string') return undefined;
  const taskArgs = task.args ?? [];
  if (!Array.isArray(taskArgs) || !taskArgs.every((a) => typeof a === 'string')) return undefined;
  const line = sandboxLine(harness, [task.command, ...taskArgs.map((a) => shellQuote(a))].join(' '));
  const { args: _args, ...rest } = task;
  return line === undefined ? undefined : { line, updatedInput: { ...args, task: { ...rest, type: 'shell', command: line } } };
}

function sandboxLine(harness: Harness, command: string): string | undefined {
  const plan = harness.sandboxPlan();
  return plan.kind === 'sandboxed' ? plan.line(command) : undefined;
}

/** PostToolUse: the output's tokens and their estimated cost are charged (the line as above). */
export const postToolUse: HookHandler = async (harness, input, event) => {
  const name = input.format === 'copilot-cli' ? 'postToolUse' : 'PostToolUse';
  if (!input.tool) return passAnswer(input.format, name);
  // Claude Code's requests are measured from its transcript, Copilot's from its OTel export when it
  // sends it to Alfred; the next request carries this output, so its cost is counted there.
  const costMeasured = (input.agent === 'claude-code' && input.transcriptPath !== undefined)
    || (input.format === 'vscode' && input.agent === undefined && copilotExportOn(harness.env));
  const { charged } = await chargeCall(harness, toolCall(input.tool), input.toolResponse ?? '', {
    source: `hook:${event}`, ...(input.model ? { model: input.model } : {}), costMeasured, announce: true,
  });
  return passAnswer(input.format, name, charged.announce ? charged.line : undefined);
};

/**
 * The Copilot CLI's permissionRequest comes after preToolUse, which already decided and charged:
 * here the gate only looks (nothing charged) and refuses what it would refuse.
 */
export const permissionRequest: HookHandler = async (harness, input) => {
  if (!input.tool) return permissionAnswer(undefined);
  const decision = harness.preview(toolCall(input.tool, input.toolInput));
  return permissionAnswer(decision.allowed ? undefined : `Alfred (role ${harness.activeRole().role.name}): ${decision.reason ?? 'refused'}`);
};
