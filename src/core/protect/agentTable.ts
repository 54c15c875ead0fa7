/**
 * One row per agent Alfred governs: its hook file, the files that set its rules, the commands that
 * govern it, the program and version it was tested with, where its spend is measured and the tool
 * names it sends. Data only: the hook behaviour per agent is integrations/hooks/agentHooks.ts, the probes of a home
 * homeProbes.ts and inForce.ts, the protected paths derived from these rows protectedCatalogue.ts.
 */
export type AgentId = 'copilot' | 'copilot-cli' | 'claude-code' | 'codex' | 'gemini';

export interface GovernedAgent {
  id: AgentId;
  label: string;
  /** Workspace-relative file Alfred writes so this agent calls `alfred hook`. */
  hookFile: string;
  /** Workspace-relative paths (files or folders) whose content sets this agent's rules. */
  workspacePaths: readonly string[];
  /** Home-relative paths that do the same for every workspace. */
  homePaths: readonly string[];
  /** The commands that write and remove the hook file (agents that share a hook file share them). */
  commands: { govern: string; stop: string };
  /** What its sessions are called in messages and the event log (`govern Codex sessions`). */
  sessions: string;
  /** The program that runs it in a terminal and the version Alfred was tested with (its `--version`); none inside VS Code. */
  cli?: { program: string; testedWith: string };
  /** Where its model spend is measured: Copilot's OpenTelemetry export, Claude Code's or Gemini CLI's session file, or nowhere yet (estimated). */
  usage: 'copilot-otel' | 'claude-transcript' | 'gemini-transcript' | 'estimated';
  /**
   * Its own tool names, as its hook inputs send them, by category (rules/vocabulary/categories.ts reads them;
   * Copilot in VS Code's many spellings stay there). `shellHelpers`: shell tools that start no new command.
   */
  tools: Readonly<Partial<Record<'read' | 'search' | 'edit' | 'shell' | 'shellHelpers' | 'web' | 'task' | 'mcp' | 'other', readonly string[]>>>;
}

const COPILOT_COMMANDS = { govern: 'alfred.governCopilot', stop: 'alfred.stopGoverningCopilot' };

export const GOVERNED_AGENTS: readonly GovernedAgent[] = [
  {
    id: 'copilot',
    label: 'Copilot in VS Code',
    hookFile: '.github/hooks/alfred.json',
    // Hook files, custom agents, and the workspace settings that turn hooks off or approve tools.
    workspacePaths: ['.github/hooks', '.github/agents', '.vscode'],
    homePaths: ['.copilot'],
    commands: COPILOT_COMMANDS,
    sessions: 'Copilot agent sessions',
    usage: 'copilot-otel',
    tools: {},
  },
  {
    id: 'copilot-cli',
    label: 'Copilot CLI',
    hookFile: '.github/hooks/alfred.json',
    workspacePaths: ['.github/hooks', '.github/agents'],
    homePaths: ['.copilot'],
    commands: COPILOT_COMMANDS,
    sessions: 'Copilot agent sessions',
    cli: { program: 'copilot', testedWith: '1.0.102' },
    usage: 'copilot-otel',
    tools: {
      read: ['view', 'show_file'],
      search: ['grep', 'rg', 'glob', 'lsp', 'search_code_subagent'],
      edit: ['create', 'edit', 'str_replace', 'insert', 'str_replace_editor', 'apply_patch'],
      shell: ['bash', 'powershell'],
      shellHelpers: ['write_bash', 'read_bash', 'stop_bash', 'list_bash', 'write_powershell', 'read_powershell', 'stop_powershell', 'list_powershell'],
      web: ['web_fetch', 'web_search'],
      task: ['task', 'read_agent', 'write_agent', 'list_agents', 'skill'],
      other: ['report_intent', 'think', 'update_todo', 'ask_user', 'exit_plan_mode', 'sql', 'store_memory', 'task_complete'],
    },
  },
  {
    id: 'claude-code',
    label: 'Claude Code',
    hookFile: '.claude/settings.json',
    // settings.json and settings.local.json hold hooks and permissions; agents/ defines sub-agents.
    workspacePaths: ['.claude'],
    homePaths: ['.claude'],
    commands: { govern: 'alfred.governClaudeCode', stop: 'alfred.stopGoverningClaudeCode' },
    sessions: 'Claude Code sessions',
    cli: { program: 'claude', testedWith: '2.1.328' },
    usage: 'claude-transcript',
    tools: {
      read: ['Read', 'NotebookRead'],
      search: ['Glob', 'Grep', 'LS', 'ToolSearch', 'LSP'],
      edit: ['Edit', 'MultiEdit', 'Write', 'NotebookEdit'],
      shell: ['Bash', 'Monitor', 'REPL'],
      shellHelpers: ['BashOutput', 'TaskOutput', 'KillBash', 'KillShell', 'TaskStop'],
      web: ['WebFetch', 'WebSearch'],
      task: ['Task', 'Agent', 'Skill', 'Workflow'],
      mcp: ['ListMcpResourcesTool', 'ReadMcpResourceTool'],
      other: ['TodoWrite', 'AskUserQuestion', 'EnterPlanMode', 'ExitPlanMode', 'EnterWorktree', 'ExitWorktree'],
    },
  },
  {
    id: 'codex',
    label: 'Codex',
    hookFile: '.codex/hooks.json',
    workspacePaths: ['.codex'],
    homePaths: ['.codex'],
    commands: { govern: 'alfred.governCodex', stop: 'alfred.stopGoverningCodex' },
    sessions: 'Codex sessions',
    cli: { program: 'codex', testedWith: '0.169.0' },
    usage: 'estimated',
    tools: {
      read: ['view_image'],
      edit: ['apply_patch'],
      // 0.169 names its shell exec_command; older ones shell, local_shell, shell_command
      shell: ['exec_command', 'shell', 'local_shell', 'shell_command', 'unified_exec'],
      // input to a command exec_command started
      shellHelpers: ['write_stdin'],
      web: ['web_search'],
      other: ['update_plan', 'request_user_input'],
    },
  },
  {
    id: 'gemini',
    label: 'Gemini CLI',
    hookFile: '.gemini/settings.json',
    // settings.json holds hooks, tool approvals and MCP servers; .gemini/ also its commands and policies.
    workspacePaths: ['.gemini'],
    homePaths: ['.gemini'],
    commands: { govern: 'alfred.governGemini', stop: 'alfred.stopGoverningGemini' },
    sessions: 'Gemini CLI sessions',
    cli: { program: 'gemini', testedWith: '0.61.0' },
    usage: 'gemini-transcript',
    // Read from @google/gemini-cli 0.61.0's bundle (its *_TOOL_NAME constants).
    tools: {
      read: ['read_file', 'read_many_files', 'get_internal_docs'],
      search: ['glob', 'grep_search', 'list_directory'],
      edit: ['write_file', 'replace'],
      shell: ['run_shell_command'],
      shellHelpers: ['read_background_output', 'list_background_processes'],
      web: ['google_web_search', 'web_fetch'],
      task: ['invoke_agent', 'activate_skill'],
      mcp: ['list_mcp_resources', 'read_mcp_resource'],
      other: ['ask_user', 'complete_task', 'enter_plan_mode', 'exit_plan_mode', 'write_todos', 'update_topic', 'take_snapshot',
        'tracker_add_dependency', 'tracker_create_task', 'tracker_get_task', 'tracker_list_tasks', 'tracker_update_task', 'tracker_visualize'],
    },
  },
];

/** An agent's row. */
export function governedAgent(id: AgentId): GovernedAgent {
  const row = GOVERNED_AGENTS.find((a) => a.id === id);
  if (!row) throw new Error(`unknown agent ${id}`);
  return row;
}


/** Every hook file, once (agents may share one: Copilot in VS Code and the Copilot CLI do), workspace-relative with `/`. */
export const HOOK_FILES: readonly string[] = [...new Set(GOVERNED_AGENTS.map((a) => a.hookFile))];
