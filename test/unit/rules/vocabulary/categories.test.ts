import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { categoryOf, isNewShellInvocation, KNOWN_TOOLS } from '../../../../src/core/rules/vocabulary/categories';
import { toolCall } from '../../../../src/core/rules/policy/toolCall';

/** The command a call runs, as its entry reads it (rules/policy/toolCall.ts). */
const shellCommandOf = (name: string, input: unknown): string | undefined => toolCall(name, input).command;
import type { ToolCategory } from '../../../../src/core/rules/vocabulary/types';

const expected: Record<ToolCategory, string[]> = {
  session: ['ctx_session'],
  read: ['ctx_read', 'ctx_review', 'read_file', 'view_image', 'get_errors', 'terminal_selection', 'terminal_last_command',
    'copilot_getNotebookSummary', 'read_notebook_cell_output', 'Read', 'NotebookRead', 'view', 'show_file'],
  search: ['ctx_search', 'ctx_tree', 'semantic_search', 'grep_search', 'file_search', 'list_dir', 'get_changed_files',
    'search_workspace_symbols', 'vscode_listCodeUsages', 'test_search', 'Glob', 'Grep', 'LS', 'LSP', 'ToolSearch',
    'grep', 'rg', 'glob', 'lsp', 'search_code_subagent'],
  edit: ['ctx_edit', 'replace_string_in_file', 'multi_replace_string_in_file', 'insert_edit_into_file', 'create_file',
    'edit_notebook_file', 'create_directory', 'apply_patch', 'create_new_jupyter_notebook', 'vscode_renameSymbol',
    'edit_files', 'editFiles', 'Edit', 'MultiEdit', 'Write', 'NotebookEdit', 'create', 'edit', 'str_replace', 'insert',
    'str_replace_editor'],
  shell: ['ctx_shell', 'run_in_terminal', 'runInTerminal', 'runTerminalCommand', 'create_and_run_task', 'run_task',
    'get_task_output', 'get_terminal_output', 'await_terminal', 'kill_terminal', 'run_notebook_cell', 'runTests',
    'Bash', 'Monitor', 'REPL', 'BashOutput', 'TaskOutput', 'KillBash', 'KillShell', 'TaskStop',
    'bash', 'powershell', 'write_bash', 'read_bash', 'stop_bash', 'list_bash', 'read_powershell', 'exec_command', 'write_stdin'],
  web: ['fetch_webpage', 'github_repo', 'open_browser_page', 'WebFetch', 'WebSearch', 'web_fetch', 'web_search'],
  task: ['runSubagent', 'search_subagent', 'execution_subagent', 'Task', 'Agent', 'Skill', 'Workflow', 'task',
    'read_agent', 'write_agent', 'list_agents', 'skill'],
  mcp: ['ListMcpResourcesTool', 'ReadMcpResourceTool', 'mcp__github__create_issue', 'mcp_github_get_issue', 'github-list_issues'],
  other: ['manage_todo_list', 'memory', 'run_vscode_command', 'install_extension', 'get_vscode_api', 'vscode_askQuestions',
    'switch_agent', 'tool_search', 'create_new_workspace', 'get_project_setup_info', 'TodoWrite', 'AskUserQuestion',
    'EnterPlanMode', 'ExitPlanMode', 'EnterWorktree', 'ExitWorktree', 'report_intent', 'think', 'update_todo',
    'ask_user', 'exit_plan_mode', 'sql', 'store_memory', 'task_complete', 'totally_unknown_tool', ''],
};

describe('categoryOf', () => {
  for (const [category, names] of Object.entries(expected)) {
    it(`maps ${category} tools`, () => {
      for (const name of names) assert.equal(categoryOf(name), category, name);
    });
  }

  it('matches qualified names on the last segment', () => {
    assert.equal(categoryOf('execute/runInTerminal'), 'shell');
    assert.equal(categoryOf('edit/editFiles'), 'edit');
    assert.equal(categoryOf('read/readFile'), 'read');
    assert.equal(categoryOf('search/codebase'), 'search');
    assert.equal(categoryOf('web/fetch'), 'web');
    assert.equal(categoryOf('agent/runSubagent'), 'task');
    assert.equal(categoryOf('some/deep/Bash'), 'shell');
    assert.equal(categoryOf('execute/unknownThing'), 'other');
  });

  it('falls back to a case-insensitive lookup without changing any category', () => {
    assert.equal(categoryOf('RUN_IN_TERMINAL'), 'shell');
    assert.equal(categoryOf('BASH'), 'shell');
    assert.equal(categoryOf('APPLY_PATCH'), 'edit');
    const folded = new Map<string, ToolCategory>();
    for (const [name, category] of KNOWN_TOOLS) {
      const seen = folded.get(name.toLowerCase());
      assert.ok(seen === undefined || seen === category, `${name} conflicts by case`);
      folded.set(name.toLowerCase(), category);
    }
  });

  it('reads a hyphen as an MCP tool only when the name is not otherwise known', () => {
    assert.equal(categoryOf('playwright-browser_click'), 'mcp');
    assert.equal(categoryOf('mcp__playwright__browser_click'), 'mcp');
    assert.equal(categoryOf('mcp_playwright_browser_click'), 'mcp');
    assert.equal(categoryOf('run_in_terminal'), 'shell');
    assert.equal(categoryOf('not a-tool'), 'other');
  });
});

describe('isNewShellInvocation', () => {
  it('is true for commands that start something', () => {
    for (const name of ['ctx_shell', 'run_in_terminal', 'runInTerminal', 'execute/runInTerminal', 'Bash', 'bash',
      'powershell', 'REPL', 'Monitor', 'run_notebook_cell', 'runTests', 'create_and_run_task', 'run_task', 'exec_command']) {
      assert.equal(isNewShellInvocation(name), true, name);
    }
  });

  it('is false for helpers and for non-shell tools', () => {
    for (const name of ['get_terminal_output', 'kill_terminal', 'await_terminal', 'get_task_output', 'BashOutput',
      'KillShell', 'KillBash', 'TaskOutput', 'TaskStop', 'read_bash', 'stop_bash', 'write_bash', 'list_bash',
      'execute/getTerminalOutput', 'read_file', 'Edit', 'memory', 'write_stdin']) {
      assert.equal(isNewShellInvocation(name), false, name);
    }
  });
});

describe('the shell command of a tool call', () => {
  it('reads command, REPL code and task command with args', () => {
    assert.equal(shellCommandOf('run_in_terminal', { command: 'npm test', explanation: 'x' }), 'npm test');
    assert.equal(shellCommandOf('Bash', { command: 'ls -la' }), 'ls -la');
    assert.equal(shellCommandOf('bash', '{"command":"git status"}'), 'git status');
    assert.equal(shellCommandOf('REPL', { code: 'print(1)' }), 'print(1)');
    assert.equal(shellCommandOf('create_and_run_task', { task: { command: 'npm', args: ['run', 'build'] } }), 'npm run build');
  });

  it('ignores sub-commands of non-shell tools and missing commands', () => {
    assert.equal(shellCommandOf('memory', { command: 'view' }), undefined);
    assert.equal(shellCommandOf('str_replace_editor', { command: 'str_replace', path: 'a' }), undefined);
    assert.equal(shellCommandOf('kill_terminal', { id: 't1' }), undefined);
    assert.equal(shellCommandOf('run_in_terminal', null), undefined);
    assert.equal(shellCommandOf('run_in_terminal', 'not json'), undefined);
  });
});
