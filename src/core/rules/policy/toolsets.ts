/**
 * The tools a refusal may suggest instead, in the words of the agent that made the call: Claude Code's
 * model knows Read and Grep, not Alfred's ctx_read, and a suggestion it cannot call wastes a turn.
 */
import { KNOWN_TOOLS } from '../vocabulary/categories';
import type { ToolCategory } from '../vocabulary/types';

/**
 * Whose tools the caller has. `alfred`: Alfred's own (ctx_read, …), which the `@alfred` loop and
 * Copilot in VS Code (as language model tools) call; the others are the terminal agents' own.
 */
export type Toolset = 'alfred' | 'claude-code' | 'codex' | 'copilot-cli' | 'gemini';

export type SuggestedCategory = Extract<ToolCategory, 'read' | 'search' | 'edit' | 'shell'>;

/** Per toolset and category, the tools to suggest, in the order they are named. Codex reads and searches through its shell. */
const SUGGESTIONS: Readonly<Record<Toolset, Readonly<Record<SuggestedCategory, readonly string[]>>>> = {
  alfred: { read: ['ctx_read'], search: ['ctx_search'], edit: ['ctx_edit'], shell: ['ctx_shell'] },
  'claude-code': { read: ['Read'], search: ['Grep', 'Glob'], edit: ['Edit', 'Write'], shell: ['Bash'] },
  codex: { read: [], search: [], edit: ['apply_patch'], shell: ['exec_command'] },
  'copilot-cli': { read: ['view'], search: ['grep', 'glob'], edit: ['edit', 'create'], shell: ['bash'] },
  'gemini': { read: ['read_file'], search: ['grep_search', 'glob'], edit: ['replace', 'write_file'], shell: ['run_shell_command'] },
};

/**
 * The tools of `toolset` to suggest for `category`. A name the category table does not file under that
 * category is left out: the role's rules could not be checked against it, and a suggestion the gate
 * then refuses would mislead.
 */
export function suggestedTools(toolset: Toolset, category: SuggestedCategory): readonly string[] {
  return SUGGESTIONS[toolset][category].filter((name) => KNOWN_TOOLS.get(name) === category);
}

/** Whether the caller can call Alfred's ctx_session (to read its budget when every other tool is refused). */
export function hasSessionTool(toolset: Toolset): boolean {
  return toolset === 'alfred';
}
