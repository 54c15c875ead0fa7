/**
 * Hook input from Copilot in VS Code, Claude Code, the Copilot CLI and Codex, read into one shape.
 * Agents rename fields between versions, so every spelling they were seen to send is accepted.
 */
import { inputShapeProblem } from '../../rules/policy/inputShape';
import { GEMINI_EVENTS } from './events';

export type HookFormat = 'vscode' | 'copilot-cli';

/**
 * The agent behind a snake_case input, where it can be told: Codex sends `turn_id`, Claude Code
 * `permission_mode`, Gemini CLI names its own events (BeforeTool, …).
 */
export type HookAgent = 'codex' | 'claude-code' | 'gemini' | undefined;

export interface HookInput {
  /** The event as the agent named it on the command line or in its input. */
  event: string;
  format: HookFormat;
  agent?: HookAgent;
  /** The agent's transcript (Claude Code's holds each model request's usage). */
  transcriptPath?: string;
  /** The input as sent, for fields only one event carries (a sub-agent's `agent_id`, `agent_type`). */
  raw?: Readonly<Record<string, unknown>>;
  sessionId?: string;
  cwd: string;
  tool?: string;
  toolInput?: unknown;
  toolResponse?: string;
  prompt?: string;
  model?: string;
  stopHookActive?: boolean;
}

export class HookInputError extends Error {}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** camelCase event names (`preToolUse`) are the Copilot CLI's; PascalCase ones use the snake_case input. */
export function formatOf(event: string): HookFormat {
  return /^[a-z]/.test(event) ? 'copilot-cli' : 'vscode';
}

/**
 * The answer format, from the input first: VS Code reads Copilot CLI hook files too and then runs
 * `alfred hook preToolUse` with its own input (`hook_event_name`), expecting its own answer.
 */
export function formatOfInput(d: Record<string, unknown>, event: string): HookFormat {
  if (typeof d.hook_event_name === 'string' || typeof d.hookEventName === 'string' || typeof d.tool_name === 'string') return 'vscode';
  return formatOf(event);
}

function agentOf(d: Record<string, unknown>, event: string): { agent?: HookAgent } {
  if (typeof d.turn_id === 'string') return { agent: 'codex' };
  // Codex's SessionStart has no turn yet; it names its model beside the permission mode, which Claude
  // Code never does (recorded inputs: test/fixtures/agents).
  if (typeof d.permission_mode === 'string') return { agent: typeof d.model === 'string' && d.prompt_id === undefined ? 'codex' : 'claude-code' };
  const named = typeof d.hook_event_name === 'string' ? d.hook_event_name : event;
  return GEMINI_EVENTS.includes(named) || GEMINI_EVENTS.includes(event) ? { agent: 'gemini' } : {};
}

/** Parses stdin; throws HookInputError with a message meant for a person reading the agent's log. */
export function parseHookInput(raw: string, event: string, fallbackCwd: string): HookInput {
  if (!raw.trim()) throw new HookInputError(`alfred hook ${event}: no input on stdin (expected the agent's hook JSON).`);
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch (err) {
    throw new HookInputError(`alfred hook ${event}: stdin is not JSON (${(err as Error).message}).`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new HookInputError(`alfred hook ${event}: stdin must be a JSON object.`);
  const d = data as Record<string, unknown>;
  let toolInput: unknown = d.tool_input ?? d.toolInput ?? d.toolArgs;
  if (typeof toolInput === 'string') {
    // The Copilot CLI sends toolArgs as a JSON string.
    try { toolInput = JSON.parse(toolInput); } catch { /* keep the string */ }
  }
  const response = d.tool_response ?? d.toolResponse ?? d.toolResult;
  const responseShape = typeof response === 'object' ? inputShapeProblem(response) : undefined;
  return {
    event: str(d.hook_event_name) ?? str(d.hookEventName) ?? event,
    format: formatOfInput(d, event),
    ...(str(d.transcript_path) ? { transcriptPath: str(d.transcript_path) } : {}),
    ...(typeof d.agent_id === 'string' || typeof d.agent_type === 'string' ? { raw: { agent_id: d.agent_id, agent_type: d.agent_type } } : {}),
    ...agentOf(d, event),
    sessionId: str(d.session_id) ?? str(d.sessionId),
    cwd: str(d.cwd) ?? fallbackCwd,
    tool: str(d.tool_name) ?? str(d.toolName),
    toolInput,
    toolResponse: response === undefined || response === null ? undefined
      : typeof response === 'string' ? response
        : responseShape ? `[tool response not read: ${responseShape}]` : JSON.stringify(response),
    prompt: str(d.prompt),
    model: str(d.model),
    stopHookActive: d.stop_hook_active === true || d.stopHookActive === true,
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Codex's tool inputs in Alfred's shape: its apply_patch sends the patch text under `command`
 * (Alfred's edit rules read a patch under `input`), and its exec_command the command under `command`
 * (a string or an argument vector) or, in its unified form, `cmd`.
 */
function codexShape(tool: string, input: Record<string, unknown>): Record<string, unknown> {
  if (/^apply_?patch$/i.test(tool) && typeof input.command === 'string' && input.input === undefined) return { ...input, input: input.command };
  if (input.command === undefined && input.cmd !== undefined) return { ...input, command: input.cmd };
  return input;
}

/** Gemini CLI's run_shell_command says the folder it runs in as `dir_path`. */
function geminiShape(_tool: string, input: Record<string, unknown>): Record<string, unknown> {
  return input.cwd === undefined && typeof input.dir_path === 'string' ? { ...input, cwd: input.dir_path } : input;
}

const SHAPES: Partial<Record<NonNullable<HookAgent>, (tool: string, input: Record<string, unknown>) => Record<string, unknown>>> = {
  codex: codexShape,
  gemini: geminiShape,
};

/**
 * The tool input as the gate reads it (rules/policy/toolCall.ts): where each agent puts a command, a path
 * or a patch, moved to where Alfred looks. The input as sent stays in `toolInput`: a rewrite the agent
 * applies must be in its own shape.
 */
export function gateToolInput(input: Pick<HookInput, 'agent' | 'tool' | 'toolInput'>): unknown {
  const shape = input.agent ? SHAPES[input.agent] : undefined;
  return shape && input.tool && isRecord(input.toolInput) ? shape(input.tool, input.toolInput) : input.toolInput;
}
