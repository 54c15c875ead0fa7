/**
 * One table from known tool names to categories, so shell and edit rules hold for tools Alfred did
 * not write: Copilot in VS Code's here, the terminal agents' from their rows (protect/agentTable.ts).
 */
import { GOVERNED_AGENTS } from '../../protect/agentTable';
import type { ToolCategory } from './types';

const TABLE: Readonly<Record<ToolCategory, readonly string[]>> = {
  session: ['ctx_session'],
  read: [
    'ctx_read', 'ctx_review',
    // Copilot (names the model sees, then reference names used in agent files and docs)
    'read_file', 'view_image', 'read_notebook_cell_output', 'copilot_getNotebookSummary', 'get_errors',
    'terminal_selection', 'terminal_last_command',
    'readFile', 'problems', 'testFailure', 'terminalSelection', 'terminalLastCommand',
    'readNotebookCellOutput', 'getNotebookSummary', 'viewImage',
    // Copilot's ids as vscode.lm.tools lists them (what @alfred offers and agent files are built from)
    'copilot_readFile', 'copilot_viewImage', 'copilot_getErrors', 'copilot_readNotebookCellOutput', 'copilot_readProjectStructure',
  ],
  search: [
    'ctx_search', 'ctx_tree',
    'semantic_search', 'grep_search', 'file_search', 'search_workspace_symbols', 'vscode_listCodeUsages',
    'get_search_view_results', 'test_search', 'list_dir', 'get_changed_files',
    'codebase', 'search', 'textSearch', 'fileSearch', 'listDirectory', 'usages', 'changes',
    'searchResults', 'findTestFiles',
    'copilot_searchCodebase', 'copilot_searchWorkspaceSymbols', 'copilot_findFiles', 'copilot_findTextInFiles',
    'copilot_listDirectory', 'copilot_getChangedFiles', 'copilot_findTestFiles', 'symbols',
  ],
  edit: [
    'ctx_edit', 'alfred_memory_append',
    'replace_string_in_file', 'multi_replace_string_in_file', 'insert_edit_into_file', 'create_file',
    'edit_notebook_file', 'create_directory', 'apply_patch', 'create_new_jupyter_notebook',
    'vscode_renameSymbol', 'edit_files',
    'editFiles', 'createFile', 'createDirectory', 'editNotebook', 'newJupyterNotebook', 'rename',
    'copilot_applyPatch', 'copilot_insertEdit', 'copilot_createFile', 'copilot_createDirectory', 'copilot_replaceString',
    'copilot_multiReplaceString', 'copilot_editNotebook', 'copilot_createNewJupyterNotebook', 'copilot_editFiles',
    'applyPatch', 'insertEdit', 'replaceString', 'multiReplaceString', 'createJupyterNotebook',
  ],
  shell: [
    'ctx_shell',
    'run_in_terminal', 'create_and_run_task', 'run_task', 'run_notebook_cell', 'runTests',
    'runInTerminal', 'runTerminalCommand', 'runCommands', 'createAndRunTask', 'runTask', 'runTasks',
    'runCell', 'runNotebooks',
    // send_to_terminal types a line into a terminal: it runs a command like run_in_terminal does
    'copilot_runNotebookCell', 'runNotebookCell', 'send_to_terminal', 'sendToTerminal',
  ],
  web: [
    'fetch_webpage', 'github_repo', 'open_browser_page',
    'fetch', 'githubRepo', 'openSimpleBrowser',
    'copilot_fetchWebPage', 'copilot_githubRepo', 'copilot_githubTextSearch', 'githubTextSearch',
  ],
  task: [
    'runSubagent', 'search_subagent', 'execution_subagent',
    'explore_subagent', 'executionSubagent', 'searchSubagent', 'exploreSubagent',
  ],
  mcp: [],
  other: [
    'manage_todo_list', 'memory', 'run_vscode_command', 'install_extension', 'get_vscode_api',
    'vscode_askQuestions', 'switch_agent', 'tool_search', 'create_new_workspace', 'get_project_setup_info',
    'todos', 'todo', 'vscodeAPI', 'extensions', 'new',
    'copilot_getVSCodeAPI', 'copilot_createNewWorkspace', 'copilot_installExtension', 'copilot_runVscodeCommand',
    'copilot_switchAgent', 'copilot_memory', 'copilot_resolveMemoryFileUri', 'copilot_sessionStoreSql',
    'setup_tools_createNewWorkspace', 'installExtension', 'switchAgent', 'newWorkspace',
  ],
};

/** Shell-category tools that read output of, wait for, or stop an existing shell: no new invocation. */
const SHELL_HELPERS: readonly string[] = [
  'get_task_output', 'get_terminal_output', 'await_terminal', 'kill_terminal',
  'getTaskOutput', 'getTerminalOutput', 'awaitTerminal', 'killTerminal',
];

const EXACT = new Map<string, ToolCategory>();
for (const [category, names] of Object.entries(TABLE) as [ToolCategory, readonly string[]][]) {
  for (const name of names) EXACT.set(name, category);
}
// The terminal agents' own names, from their rows (protect/agentTable.ts).
const AGENT_HELPERS = GOVERNED_AGENTS.flatMap((a) => a.tools.shellHelpers ?? []);
for (const agent of GOVERNED_AGENTS) {
  for (const [category, names] of Object.entries(agent.tools)) {
    if (category !== 'shellHelpers') for (const name of names) if (!EXACT.has(name)) EXACT.set(name, category as ToolCategory);
  }
}
for (const name of [...SHELL_HELPERS, ...AGENT_HELPERS]) EXACT.set(name, 'shell');
// Agents rename and re-case tools between versions; no two entries differ only by case in category,
// so a case-insensitive fallback never weakens a rule.
const FOLDED = new Map<string, ToolCategory>();
for (const [name, category] of EXACT) if (!FOLDED.has(name.toLowerCase())) FOLDED.set(name.toLowerCase(), category);
const HELPERS = new Set([...SHELL_HELPERS, ...AGENT_HELPERS].map((n) => n.toLowerCase()));

/** Every tool name the table knows, with its category (for docs, completion and tests). */
export const KNOWN_TOOLS: ReadonlyMap<string, ToolCategory> = EXACT;

/** The segment after the last `/`: qualified agent-file names (`execute/runInTerminal`) name the same tool. */
export function baseToolName(name: string): string {
  const slash = name.lastIndexOf('/');
  return slash < 0 ? name : name.slice(slash + 1);
}

/** Table lookups made so far: test/unit/rules/policy/toolCall.test.ts proves a governed call makes one. */
export const categoryLookups = { count: 0 };

export function categoryOf(name: string): ToolCategory {
  categoryLookups.count++;
  const base = baseToolName(name.trim());
  const known = EXACT.get(base) ?? FOLDED.get(base.toLowerCase());
  if (known) return known;
  // mcp__server__tool (Claude) and mcp_server_tool (VS Code) share the prefix.
  if (base.startsWith('mcp_')) return 'mcp';
  // Copilot CLI names MCP tools `server-tool`; no built-in name has a hyphen.
  if (/^[^-\s]+-[^\s]+$/.test(base)) return 'mcp';
  return 'other';
}

/** Task tools that only talk to sub-agents already running (they start none). */
const SUBAGENT_HELPERS = new Set(['read_agent', 'write_agent', 'list_agents', 'skill']);

/** What a tool's name says about it, from one lookup in the table. */
export interface ToolKind {
  /** The name trimmed. */
  name: string;
  /** The segment after the last `/`. */
  base: string;
  category: ToolCategory;
  /** A shell-category call that starts something new (and costs one shell invocation). */
  newShell: boolean;
  /** A tool call that starts a sub-agent (Copilot's runSubagent, Claude Code's Task, the Copilot CLI's task). */
  startsSubagent: boolean;
}

export function toolKind(name: string): ToolKind {
  const trimmed = name.trim();
  const base = baseToolName(trimmed);
  const category = categoryOf(trimmed);
  const folded = base.toLowerCase();
  return {
    name: trimmed, base, category,
    newShell: category === 'shell' && !HELPERS.has(folded),
    startsSubagent: category === 'task' && !SUBAGENT_HELPERS.has(folded),
  };
}

export function startsSubagent(name: string): boolean {
  return toolKind(name).startsSubagent;
}

export function isNewShellInvocation(name: string): boolean {
  return toolKind(name).newShell;
}
