/**
 * A tool call read once, where it enters Alfred (an LM tool's invoke, `@alfred`'s loop, a hook): its
 * name looked up in the category table, its input parsed and its shape checked, the files and the
 * shell command it names extracted. The gate and the protection rules read this value; none of them
 * interprets the input again.
 */
import { toolKind, type ToolKind } from '../vocabulary/categories';
import { inputShapeProblem } from './inputShape';
import { callFingerprint } from './repetition';
import { toolPaths } from '../../protect/toolPaths';
import { isObject } from '../../base/isObject';

export interface ToolCall extends ToolKind {
  /** The input as the tool gets it; a JSON text is parsed (the Copilot CLI sends its arguments as one). */
  input: unknown;
  /** Why the input is refused before any rule reads it (nested too deep, too many values). */
  badShape?: string;
  /** Files an edit-category call names, or a shell call's patch text, in order, without duplicates (empty for other categories). */
  paths: readonly string[];
  /** The command a shell-category call runs. */
  command?: string;
  /** The folder the input says the command runs in. */
  cwd?: string;
  /** The same for calls that mean the same (whitespace, key order): the runaway guard's unit. */
  fingerprint: string;
}

/** Reads a call once. `name` may be anything an agent sent: a name that is not a string is the empty name. */
export function toolCall(name: unknown, input?: unknown): ToolCall {
  const kind = toolKind(typeof name === 'string' ? name : '');
  const value = parsedInput(input);
  const badShape = inputShapeProblem(value) ?? (kind.category === 'shell' ? taskProblem(value) : undefined);
  // A refused shape is never walked: nothing below reads it.
  if (badShape) return { ...kind, input: value, badShape, paths: [], fingerprint: callFingerprint(kind.name, value, true) };
  const args = asRecord(value);
  const command = kind.category === 'shell' && args ? commandIn(args) : undefined;
  const cwd = kind.category === 'shell' && typeof args?.cwd === 'string' ? args.cwd : undefined;
  return {
    ...kind, input: value,
    // A shell line may hold a patch too: Codex applies `apply_patch <<'EOF' … EOF` itself, outside any shell.
    paths: kind.category === 'edit' ? toolPaths(value) : command !== undefined ? toolPaths(command) : [],
    ...(command !== undefined ? { command } : {}),
    ...(cwd !== undefined ? { cwd } : {}),
    fingerprint: callFingerprint(kind.name, value, false),
  };
}

/**
 * A task's command and arguments must be strings: VS Code's tasks also take quoted-string objects,
 * which no rule reads and which the sandbox's line could not carry, so such a task would run
 * unread and outside the sandbox.
 */
function taskProblem(value: unknown): string | undefined {
  const task = asRecord(asRecord(value)?.task);
  if (!task) return undefined;
  const argsOk = task.args === undefined || (Array.isArray(task.args) && task.args.every((a) => typeof a === 'string'));
  return (task.command === undefined || typeof task.command === 'string') && argsOk ? undefined : 'a task\'s command and arguments must be strings';
}

/** A JSON text parsed, as many times as it is JSON text (an agent may encode it twice); anything else as it is. */
function parsedInput(input: unknown): unknown {
  let value = input;
  while (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return value; // not JSON: a bare patch text, or a string no rule reads
    }
  }
  return value;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return isObject(value) ? value : undefined;
}

/**
 * An argument vector (Codex's `command: ["bash", "-lc", "…"]`) as the shell line that runs it: each
 * word quoted where needed, so the line's parser sees `-lc`'s script as one word, as the program does.
 */
export function argvLine(argv: readonly string[]): string {
  return argv.map((w) => (/^[A-Za-z0-9_/.,:@%+=-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return argvLine(value) || undefined;
  return undefined;
}

/**
 * The command in a shell call's arguments: `command`, Codex's `cmd`, a REPL's `code`, `input`, or a task's command
 * with its arguments. (A `command` key in another category, e.g. `memory` or `str_replace_editor`,
 * is a sub-command, which is why only shell calls are read.)
 */
function commandIn(args: Record<string, unknown>): string | undefined {
  const command = text(args.command) ?? text(args.cmd) ?? text(args.code) ?? text(args.input);
  if (command !== undefined) return command;
  const task = asRecord(args.task);
  const taskCommand = task && text(task.command);
  if (taskCommand === undefined) return undefined;
  const taskArgs = Array.isArray(task?.args) ? task.args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))) : [];
  return [taskCommand, ...taskArgs].join(' ');
}
