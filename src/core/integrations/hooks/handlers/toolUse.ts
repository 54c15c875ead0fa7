import { chargeCall, decideCall } from '../../../harness/governedCall';
import type { Harness } from '../../../harness/harness';
import { shellQuote } from '../../../sandbox/index';
import { runsInVscodeSandbox } from '../../../sandbox/vscodeSandbox';
import { toolCall, type ToolCall } from '../../../rules/policy/toolCall';
import type { Toolset } from '../../../rules/policy/toolsets';
import { gateToolInput, type HookInput } from '../input';
import { copilotExportOn } from '../../../usage/copilotSpool';
import { askAnswer, denyAnswer, passAnswer, permissionAnswer } from '../output';
import type { HookHandler } from './types';
import { isObject } from '../../../base/isObject';

/**
 * The budget line is given to the agent as context once per crossing (WARNING or EXHAUSTED), at the
 * first tool hook after it, whichever charge crossed: every call would drown it. At EXHAUSTED the
 * refusal itself quotes the line, on every call.
 *
 * PreToolUse: the gate decides and charges a new shell invocation before it runs. A shell command is
 * rewritten to run in the kernel sandbox (protected paths read-only) for every agent, in the field it
 * applies (output.ts, passAnswer): VS Code's agent, Claude Code and the Copilot CLI without an `allow`
 * (which would skip their own confirmation), Gemini CLI through `hookSpecificOutput.tool_input`, and
 * Codex with the `allow` it requires for a rewrite (codexSandboxed). Where there is no sandbox the
 * command is guarded by parsing, and refused under `sandbox = "required"`. A task's command is
 * rewritten too (create_and_run_task writes the task into tasks.json and runs it in a terminal of its
 * own, outside the sandbox unless rewritten). Copilot's terminal command in VS Code is left to VS Code's
 * own sandbox where that one holds Alfred's rules (runsInVscodeSandbox).
 */
export const preToolUse: HookHandler = async (harness, input, event) => {
  const name = input.format === 'copilot-cli' ? 'preToolUse' : 'PreToolUse';
  if (!input.tool) return denyAnswer(input.format, name, 'Alfred could not tell which tool this is (no tool_name in the hook input), so it refuses it.', input.agent);
  const call = toolCall(input.tool, gateToolInput(input));
  const { command } = call;
  // VS Code's own sandbox, configured to hold Alfred's rules in every editor here, runs Copilot's
  // terminal command: none is nested inside it (sandbox/vscodeSandbox.ts). Else Alfred's, fail safe.
  const byVscode = command !== undefined && runsInVscodeSandbox(input, call.base, input.toolInput) && harness.vscodeSandboxHolds();
  const rewritten = command !== undefined && !byVscode ? sandboxedInput(input, call, harness) : undefined;
  const sandboxed = rewritten?.line;
  const decided = await decideCall(harness, call, {
    source: `hook:${event}`, ...(input.model ? { model: input.model } : {}),
    ...(input.sessionId ? { agentSession: input.sessionId } : {}),
    toolset: toolsetOf(input),
    // The command a terminal will show when it runs, so its end there is not charged a second time.
    ...(command !== undefined ? { terminalCommand: sandboxed ?? command, sandboxed: sandboxed !== undefined || byVscode } : {}),
    announce: true,
  });
  if (!decided.allowed) return denyAnswer(input.format, name, `Alfred (role ${decided.refusal.details.role}): ${decided.refusal.details.reason ?? 'refused'}`, input.agent);
  const { gate } = decided;
  if (gate.decision.confirm) return askAnswer(input.format, name, `Alfred (role ${gate.status.role}): ${gate.decision.confirm}`, input.agent, rewritten?.updatedInput);
  return passAnswer(input.format, name, gate.announce ? gate.line : undefined, rewritten?.updatedInput, input.agent);
};

/** The tools the calling agent has, for a refusal's suggestion: VS Code's agent can call Alfred's own. */
function toolsetOf(input: HookInput): Toolset {
  return input.format === 'copilot-cli' ? 'copilot-cli' : input.agent ?? 'alfred';
}

/** Shell tools whose command is not a POSIX shell line, so the sandbox's line cannot stand in for it. */
const NOT_POSIX = new Set(['powershell']);

/**
 * A shell tool's input with its command as the sandbox's line: a terminal's `command`, or a task's
 * `command` with its `args` quoted into it (a shell task then, as create_and_run_task only makes);
 * Codex's in the shape it sent. Undefined where there is none to rewrite or no sandbox.
 */
function sandboxedInput(input: HookInput, call: ToolCall, harness: Harness): { line: string; updatedInput: Record<string, unknown> } | undefined {
  // Gemini CLI's input as it sent it (the gate's copy names its dir_path `cwd`, which Gemini would reject).
  const args = input.agent === 'gemini' && isObject(input.toolInput) ? input.toolInput : call.input;
  if (call.category !== 'shell' || NOT_POSIX.has(call.base.toLowerCase()) || !isObject(args)) return undefined;
  if (input.agent === 'codex') return codexSandboxed(input.toolInput, call, harness);
  if (typeof args.command === 'string') {
    const line = sandboxLine(harness, args.command);
    return line === undefined ? undefined : { line, updatedInput: { ...args, command: line } };
  }
  const task = args.task;
  if (!isObject(task) || typeof task.command !== 'string') return undefined;
  const taskArgs = task.args ?? [];
  if (!Array.isArray(taskArgs) || !taskArgs.every((a) => typeof a === 'string')) return undefined;
  const line = sandboxLine(harness, [task.command, ...taskArgs.map((a) => shellQuote(a))].join(' '));
  const { args: _args, ...rest } = task;
  return line === undefined ? undefined : { line, updatedInput: { ...args, task: { ...rest, type: 'shell', command: line } } };
}

/**
 * Codex's command in the sandbox, in the shape Codex sent it (`command` as a string or an argument
 * vector, or `cmd`). Codex applies a rewrite only with `permissionDecision: "allow"`, and takes an
 * `allow` for nothing else (without a rewrite it is an error to Codex, 0.169): the `allow` carries
 * the rewrite, it is not an approval Alfred could give.
 */
function codexSandboxed(raw: unknown, call: ToolCall, harness: Harness): { line: string; updatedInput: Record<string, unknown> } | undefined {
  if (!isObject(raw) || call.command === undefined) return undefined;
  const key = raw.command !== undefined ? 'command' : 'cmd';
  const line = sandboxLine(harness, call.command);
  if (line === undefined) return undefined;
  return { line, updatedInput: { ...raw, [key]: Array.isArray(raw[key]) ? ['/bin/sh', '-c', line] : line } };
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
  const costMeasured = ((input.agent === 'claude-code' || input.agent === 'gemini') && input.transcriptPath !== undefined)
    || (input.format === 'vscode' && input.agent === undefined && copilotExportOn(harness.env));
  const { charged } = await chargeCall(harness, toolCall(input.tool), input.toolResponse ?? '', {
    source: `hook:${event}`, ...(input.model ? { model: input.model } : {}), costMeasured, announce: true,
  });
  return passAnswer(input.format, name, charged.announce ? charged.line : undefined, undefined, input.agent);
};

/**
 * The Copilot CLI's permissionRequest comes after preToolUse, which already decided and charged:
 * here the gate only looks (nothing charged) and refuses what it would refuse.
 */
export const permissionRequest: HookHandler = async (harness, input) => {
  if (!input.tool) return permissionAnswer(undefined);
  const decision = harness.preview(toolCall(input.tool, gateToolInput(input)), toolsetOf(input));
  return permissionAnswer(decision.allowed ? undefined : `Alfred (role ${harness.activeRole().role.name}): ${decision.reason ?? 'refused'}`);
};
