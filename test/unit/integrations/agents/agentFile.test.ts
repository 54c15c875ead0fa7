import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agentFile, agentFileName, permittedToolNames, toolPermitted, type AvailableTool } from '../../../../src/core/integrations/agents/agentFile';
import { categoryOf } from '../../../../src/core/rules/vocabulary/categories';
import type { Role } from '../../../../src/core/rules/roles/types';
import { fixture } from '../../rules/roles/helpers';

/** What `vscode.lm.tools` lists in VS Code 1.139 with Copilot Chat (ids and full reference names, as seen there). */
const TOOLS: AvailableTool[] = [
  { name: 'copilot_readFile', referenceName: 'read/readFile' },
  { name: 'copilot_findTextInFiles', referenceName: 'search/textSearch' },
  { name: 'copilot_listDirectory', referenceName: 'search/listDirectory' },
  { name: 'copilot_replaceString', referenceName: 'edit/replaceString' },
  { name: 'copilot_createFile', referenceName: 'edit/createFile' },
  { name: 'copilot_applyPatch', referenceName: 'edit/applyPatch' },
  { name: 'copilot_fetchWebPage', referenceName: 'web/fetch' },
  { name: 'run_in_terminal', referenceName: 'execute/runInTerminal' },
  { name: 'send_to_terminal', referenceName: 'execute/sendToTerminal' },
  { name: 'get_terminal_output', referenceName: 'execute/getTerminalOutput' },
  { name: 'create_and_run_task', referenceName: 'vscodeTasks/createAndRunTask' },
  { name: 'terminal_last_command', referenceName: 'read/terminalLastCommand' },
  { name: 'manage_todo_list', referenceName: 'todo' },
  { name: 'runSubagent', referenceName: 'agent/runSubagent' },
  { name: 'vscode_editFile_internal' },
  { name: 'ctx_read', referenceName: 'alfred-harness.alfred-harness/alfredRead' },
  { name: 'ctx_search', referenceName: 'alfred-harness.alfred-harness/alfredSearch' },
  { name: 'ctx_tree', referenceName: 'alfred-harness.alfred-harness/alfredTree' },
  { name: 'ctx_edit', referenceName: 'alfred-harness.alfred-harness/alfredEdit' },
  { name: 'ctx_shell', referenceName: 'alfred-harness.alfred-harness/alfredShell' },
  { name: 'ctx_session', referenceName: 'alfred-harness.alfred-harness/alfredSession' },
  { name: 'scripted_echo', referenceName: 'alfred-tests.scripted-model/Scripted: Echo' },
];
const REFERENCEABLE = TOOLS.filter((t) => t.referenceName).map((t) => t.referenceName!);

const roles = fixture().load().roles;
const builtin = (name: string): Role => {
  const role = roles.get(name);
  assert.ok(role, `built-in role ${name}`);
  return role;
};

/**
 * The frontmatter as data. Every value must be a JSON string (a YAML double-quoted scalar) or a list of
 * them, one `  - "…"` a line: anything else fails, so unquoted or badly quoted text cannot slip through.
 */
function frontmatter(text: string): Record<string, string | string[]> {
  const lines = text.split('\n');
  assert.equal(lines[0], '---', 'the file starts with the frontmatter');
  const end = lines.indexOf('---', 1);
  assert.ok(end > 0, 'the frontmatter ends');
  const data: Record<string, string | string[]> = {};
  let list: string[] | undefined;
  for (const line of lines.slice(1, end)) {
    const item = /^ {2}- (.*)$/.exec(line);
    if (item) {
      assert.ok(list, `a list item outside a list: ${line}`);
      list.push(JSON.parse(item[1]!) as string);
      continue;
    }
    const entry = /^([a-z-]+):(?: (.*))?$/.exec(line);
    assert.ok(entry, `not a key line: ${line}`);
    if (entry[2] === undefined) data[entry[1]!] = list = [];
    else if (entry[2] === '[]') { data[entry[1]!] = []; list = undefined; } else {
      const value = JSON.parse(entry[2]) as unknown;
      assert.equal(typeof value, 'string', `${entry[1]} is a quoted string`);
      data[entry[1]!] = value as string;
      list = undefined;
    }
  }
  return data;
}

describe('agent files: tools', () => {
  it('gives the reviewer its read and search tools and no edit, shell or web tool', () => {
    const names = permittedToolNames(builtin('reviewer'), TOOLS);
    assert.deepEqual(names, [
      'alfred-harness.alfred-harness/alfredRead', 'alfred-harness.alfred-harness/alfredSearch',
      'alfred-harness.alfred-harness/alfredSession', 'alfred-harness.alfred-harness/alfredTree',
      'read/readFile', 'read/terminalLastCommand', 'search/listDirectory', 'search/textSearch',
    ]);
    for (const tool of TOOLS.filter((t) => names.includes(t.referenceName ?? ''))) {
      assert.ok(['read', 'search', 'session'].includes(categoryOf(tool.name)), `${tool.name} is ${categoryOf(tool.name)}`);
    }
  });

  it('gives the coder every tool that an agent file can name', () => {
    assert.deepEqual(permittedToolNames(builtin('coder'), TOOLS), [...REFERENCEABLE].sort());
  });

  it('gives ops everything but edit tools (Copilot\'s ids count as edits too)', () => {
    const names = permittedToolNames(builtin('ops'), TOOLS);
    assert.ok(names.includes('execute/runInTerminal') && names.includes('web/fetch'));
    for (const edit of ['edit/replaceString', 'edit/createFile', 'edit/applyPatch', 'alfred-harness.alfred-harness/alfredEdit']) {
      assert.equal(names.includes(edit), false, edit);
    }
  });

  it('drops every terminal tool under shell_policy = "deny", even when nothing else is denied', () => {
    const noShell: Role = { ...builtin('coder'), name: 'no-shell', shellPolicy: 'deny' };
    const names = permittedToolNames(noShell, TOOLS);
    for (const shell of ['execute/runInTerminal', 'execute/sendToTerminal', 'execute/getTerminalOutput', 'vscodeTasks/createAndRunTask', 'alfred-harness.alfred-harness/alfredShell']) {
      assert.equal(names.includes(shell), false, shell);
    }
    assert.ok(names.includes('edit/replaceString'));
  });

  it('keeps only ctx_session for allowed = [], and follows globs on tool ids', () => {
    const locked: Role = { ...builtin('coder'), name: 'locked', tools: { allowed: [], denied: [] } };
    assert.deepEqual(permittedToolNames(locked, TOOLS), ['alfred-harness.alfred-harness/alfredSession']);
    const alfredOnly: Role = { ...builtin('coder'), name: 'alfred-only', tools: { allowed: ['ctx_*'], denied: ['ctx_shell'] } };
    assert.deepEqual(permittedToolNames(alfredOnly, TOOLS).map((n) => n.split('/')[1]), ['alfredEdit', 'alfredRead', 'alfredSearch', 'alfredSession', 'alfredTree']);
  });

  it('lets a reference name narrow a tool but never widen it', () => {
    const noEdits: Role = { ...builtin('coder'), name: 'no-edits', tools: { denied: ['@edit'] } };
    // An id the category table does not know, whose reference name is a known edit tool: refused.
    assert.equal(toolPermitted(noEdits, { name: 'someone_replace', referenceName: 'edit/replaceString' }), false);
    // A known read id with an unknown reference name: the id decides.
    assert.equal(toolPermitted(builtin('reviewer'), { name: 'copilot_readFile', referenceName: 'x/whatever' }), true);
    // An unknown id is not read-only just because its reference name says read.
    assert.equal(toolPermitted(builtin('reviewer'), { name: 'someone_tool', referenceName: 'read/readFile' }), false);
  });
});

describe('agent files: the file', () => {
  it('is named after the role', () => {
    assert.equal(agentFileName('security-auditor'), 'alfred-security-auditor.agent.md');
  });

  it('has a description, the tools and the profile\'s models in its frontmatter', () => {
    const text = agentFile({ role: builtin('reviewer'), tools: TOOLS, models: ['Scripted A (scripted)', 'GPT-5 (copilot)'], profile: 'pair' });
    const data = frontmatter(text);
    assert.equal(data.name, 'alfred-reviewer');
    assert.equal(data.description, 'Read-only code review: reads and searches, never edits or runs a shell. Governed by Alfred: role reviewer\'s tool rules and budget are enforced by its hooks.');
    assert.deepEqual(data.tools, permittedToolNames(builtin('reviewer'), TOOLS));
    assert.deepEqual(data.model, ['Scripted A (scripted)', 'GPT-5 (copilot)']);
    assert.match(text, /failover profile \*\*pair\*\*/);
  });

  it('has no model key without a profile', () => {
    const data = frontmatter(agentFile({ role: builtin('coder'), tools: TOOLS }));
    assert.equal('model' in data, false);
    assert.equal(agentFile({ role: builtin('coder'), tools: TOOLS, models: [] }).includes('model:'), false);
  });

  it('states the rules and limits in words, and that Alfred enforces them', () => {
    const text = agentFile({ role: builtin('reviewer'), tools: TOOLS });
    const body = text.slice(text.indexOf('\n---\n') + 5);
    assert.match(body, /^# Alfred role: reviewer$/m);
    assert.match(body, /You may use only the tools matching `@read`, `@search`, `ctx_review`, `ctx_session`, and never those matching `@edit`, `@shell`/);
    assert.match(body, /You may not run shell commands/);
    assert.match(body, /Context tokens \(tokens in tool outputs\): 150,000/);
    assert.match(body, /Shell commands: 0$/m);
    assert.match(body, /Estimated cost: \$3\.00/);
    assert.match(body, /From 80% of any limit.*at 100% every tool call is refused except `ctx_session`/);
    assert.match(body, /Alfred enforces them outside the model\. Its hooks see every tool call before it runs/);
    assert.match(body, /Call `ctx_session` with action "budget"/);
    const coder = agentFile({ role: builtin('coder'), tools: TOOLS });
    assert.match(coder, /You may use every tool\./);
    assert.match(coder, /You may run shell commands; each one is counted/);
    assert.match(agentFile({ role: builtin('ops'), tools: TOOLS }), /You may use every tool except those matching `@edit`/);
  });

  it('quotes odd descriptions and tool names so they stay plain strings', () => {
    const odd = 'Reviews: "security" & #tags\n- not a list: {x: 1} [y] \\path\\ \'quoted\' ñandú 🦜\u2028end';
    const role: Role = { ...builtin('reviewer'), name: 'odd-one', description: odd };
    const tools: AvailableTool[] = [{ name: 'ctx_read', referenceName: 'ext.id/Read: "it" # now' }];
    const text = agentFile({ role, tools, models: ['Model "X": fast (vendor)'] });
    const data = frontmatter(text);
    assert.equal(data.description, 'Reviews: "security" & #tags - not a list: {x: 1} [y] \\path\\ \'quoted\' ñandú 🦜 end. Governed by Alfred: role odd-one\'s tool rules and budget are enforced by its hooks.');
    assert.deepEqual(data.tools, ['ext.id/Read: "it" # now']);
    assert.deepEqual(data.model, ['Model "X": fast (vendor)']);
    // The description's line break and separator did not break the frontmatter or the body's first line.
    assert.equal(text.split('\n').filter((l) => l === '---').length, 2);
    assert.match(text, /^You work under Alfred's role \*\*odd-one\*\*: Reviews: "security" & #tags - not a list/m);
  });

  it('writes an empty description as Alfred\'s sentence alone, and is stable for the same input', () => {
    const role: Role = { ...builtin('coder'), name: 'bare', description: '  ' };
    assert.equal(frontmatter(agentFile({ role, tools: TOOLS })).description, 'Governed by Alfred: role bare\'s tool rules and budget are enforced by its hooks.');
    assert.equal(agentFile({ role, tools: [...TOOLS].reverse() }), agentFile({ role, tools: TOOLS }));
  });
});
