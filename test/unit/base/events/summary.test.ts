import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { MAX_VALUE, SUMMARY_TEMPLATES, describeEvent, shortenEnd, shortenMiddle, summarizeEvent } from '../../../../src/core/base/events/summary';
import { EVENT_TYPES, type AlfredEvent, type EventType } from '../../../../src/core/base/events/types';

const base = { id: 'e', ts: '2025-01-01T00:00:00.000Z', session: 's', role: 'coder' };
const ev = (e: { type: string } & Record<string, unknown>) => ({ ...base, ...e }) as AlfredEvent;

const LONG_PATH = '/home/someone/projects/a-rather-long-workspace-name/.vscode/settings.json';
const LONG_REASON = 'Role reviewer does not run shell commands (shell policy deny), and this tool is a shell tool: ask the user to switch to a role that may run them, or do without.';
const LONG_COMMAND = 'npm run build -- --configuration production --verbose && npm test -- --reporter spec';
const LONG_ROLE = 'security-auditor-for-the-payments-team-and-their-services';

/** One short and one long example per event type, with the exact English sentence each gives. */
const CASES: Record<EventType, Array<[Record<string, unknown>, string]>> = {
  ToolCall: [
    [{ phase: 'decision', tool: 'ctx_read', decision: 'allow', source: 'tool', charge: { shell: 0 } }, 'Allowed ctx_read (tool)'],
    [{ phase: 'decision', tool: 'run_in_terminal', decision: 'allow', source: 'hook:PreToolUse', charge: { shell: 1 } }, 'Allowed run_in_terminal (hook:PreToolUse), 1 shell call'],
    [{ phase: 'decision', tool: 'run_in_terminal', decision: 'deny', reason: LONG_REASON, source: 'hook:PreToolUse' },
      'Refused run_in_terminal: Role reviewer does not run shell commands (shell policy deny), and this tool is a shell tool: ask the user to switch to a role that may…'],
    [{ phase: 'result', tool: 'ctx_read', charge: { tokens: 1234, costUsd: 0 } }, 'ctx_read returned 1234 tokens'],
    [{ phase: 'result', tool: 'ctx_read', charge: { tokens: 1234, costUsd: 0.0031, estimated: true } }, 'ctx_read returned 1234 tokens, ~$0.0031 (fallback price)'],
  ],
  PolicyViolation: [
    [{ tool: 'ctx_edit', reason: 'protected path' }, 'Policy violation by ctx_edit: protected path'],
    [{ tool: 'terminal', reason: LONG_REASON }, `Policy violation by terminal: ${shortenEnd(LONG_REASON)}`],
  ],
  BudgetWarning: [
    [{ dimension: 'tokens', used: 160000, limit: 200000, percent: 80 }, 'Budget warning: context tokens 160000 of 200000 (80%)'],
    [{ dimension: 'cost', used: 4.123, limit: 5, percent: 82 }, 'Budget warning: cost $4.12 of $5.00 (82%)'],
  ],
  BudgetExhausted: [
    [{ dimension: 'shell', used: 100, limit: 100, percent: 100 }, 'Budget exhausted: shell calls 100 of 100 (100%)'],
    [{ dimension: 'shell', used: 1, limit: 0, percent: 100 }, 'Shell calls are not allowed for this role (1 used)'],
  ],
  BudgetReset: [
    [{ reason: 'user' }, 'Budget reset, new session (user)'],
    [{ reason: 'cli (confirmed by the user in a modal dialog of the window that was open at the time)' },
      'Budget reset, new session (cli (confirmed by the user in a modal dialog of the window that was open at the time))'],
  ],
  RoleChanged: [
    [{ from: 'coder', to: 'reviewer' }, 'Role changed from coder to reviewer'],
    [{ from: 'coder', to: LONG_ROLE, by: 'the user' }, `Role changed from coder to ${LONG_ROLE} by the user`],
    [{ to: 'coder' }, 'Role set to coder'],
  ],
  ModelFailover: [
    [{ profile: 'pair', from: 'a', to: 'b', reason: 'failures', failures: 2 }, 'Profile pair switched from a to b after 2 failures in a row'],
    [{ profile: 'pair', from: 'alfred/main/fake-model', to: 'alfred/backup/fake-model', reason: 'unavailable' },
      'Profile pair switched from alfred/main/fake-model to alfred/backup/fake-model: alfred/main/fake-model is unavailable'],
  ],
  PackSelected: [
    [{ pack: 'testing', reason: 'trigger' }, 'Pack testing chosen (trigger)'],
    [{ pack: 'security,testing', reason: `triggers: ${'vulnerab* '.repeat(20)}` }, `Pack security,testing chosen (${shortenEnd(`triggers: ${'vulnerab* '.repeat(20)}`)})`],
  ],
  ConfigWritten: [
    [{ reason: 'Govern Copilot agent sessions', files: [{ path: '.github/hooks/alfred.json', change: 'create' }] },
      'Configuration written: .github/hooks/alfred.json (Govern Copilot agent sessions)'],
    [{ reason: 'settings', files: [{ path: LONG_PATH, change: 'modify' }, { path: 'b', change: 'modify' }, { path: 'c', change: 'create' }] },
      'Configuration written: /home/someone/projects/…/.vscode/settings.json and 2 more (settings)'],
  ],
  CheckRun: [
    [{ check: 'tests', status: 'passed', exitCode: 0 }, 'Check tests passed'],
    [{ check: 'tests', status: 'failed', exitCode: 1 }, 'Check tests failed (exit 1)'],
    [{ check: 'lint', status: 'timed out', exitCode: null }, 'Check lint: timed out'],
  ],
  CompletionRecorded: [
    [{ accepted: true, reason: 'every required check passed' }, 'Completion accepted: every required check passed'],
    [{ accepted: false, reason: 'tests failed' }, 'Completion not accepted: tests failed'],
  ],
  SpendWarning: [
    [{ level: 'warning', spentUsd: 1.6, capUsd: 2, percent: 80 }, 'Daily spend warning: $1.60 of $2.00 today (80%)'],
    [{ level: 'critical', spentUsd: 2.5, capUsd: 2, percent: 125 }, 'Daily spend cap reached: $2.50 of $2.00 today (125%)'],
  ],
  ShellExecution: [
    [{ command: 'echo hello', exitCode: 0 }, 'Terminal command echo hello exited with 0'],
    [{ command: LONG_COMMAND, exitCode: null }, 'Terminal command npm run build -- --confi…test -- --reporter spec ran (exit code unknown)'],
  ],
  HookError: [
    [{ event: 'PreToolUse', message: 'EACCES' }, 'Alfred failed in the PreToolUse hook (the call went ahead): EACCES'],
    [{ event: 'Stop', message: LONG_REASON }, `Alfred failed in the Stop hook (the call went ahead): ${shortenEnd(LONG_REASON)}`],
  ],
  ModelUsage: [
    [{ model: 'gpt-4o', inputTokens: 1200, outputTokens: 80, costUsd: 0.0038 }, 'gpt-4o used 1200 tokens in, 80 out, $0.0038'],
    [{ model: 'local', inputTokens: 5, outputTokens: 1 }, 'local used 5 tokens in, 1 out'],
  ],
  OperationUnknown: [
    [{ operation: 'op-1234567890', tool: 'ctx_shell', note: 'timed out' }, 'Operation op-12345 of ctx_shell ended unknown: timed out'],
    [{ operation: 'op-1', tool: 'ctx_shell', note: LONG_REASON }, `Operation op-1 of ctx_shell ended unknown: ${shortenEnd(LONG_REASON)}`],
  ],
  OperationReconciled: [
    [{ operation: 'op-1234567890', tool: 'ctx_shell', state: 'succeeded', by: 'user' }, 'Operation op-12345 of ctx_shell marked as succeeded by user'],
    [{ operation: 'op-1', tool: 'ctx_shell', state: 'failed', by: 'user' }, 'Operation op-1 of ctx_shell marked as failed by user'],
  ],
  AgentSession: [
    [{ agentSession: 'abc', model: 'gpt-4.1' }, 'Agent session abc started on gpt-4.1'],
    [{ agentSession: '0123456789abcdef0123456789abcdef', model: null }, 'Agent session 0123456789ab…56789abcdef started'],
  ],
  PromptSubmitted: [
    [{ agentSession: 'abc', chars: 42, lines: 1 }, 'Prompt submitted in session abc (42 characters)'],
    [{ agentSession: null, chars: 12000, lines: 300 }, 'Prompt submitted in session ? (12000 characters)'],
  ],
  StopChecked: [
    [{ agentSession: 'abc', decision: 'allow', blocks: 0, maxBlocks: 3 }, 'The agent may stop in session abc: the checks passed'],
    [{ agentSession: 'abc', decision: 'block', blocks: 0, maxBlocks: 3 }, 'The agent keeps working in session abc: the checks fail (1 of 3 continuations)'],
    [{ agentSession: 'abc', decision: 'allow-after-limit', blocks: 3, maxBlocks: 3 }, 'The agent may stop in session abc: the checks still fail after 3 continuations'],
  ],
  AuthorityRequested: [
    [{ action: 'role', target: 'admin', by: 'cli', gains: [] }, 'cli asked to switch to role admin: waiting for your confirmation'],
    [{ action: 'reset', by: 'cli', gains: [] }, 'cli asked to reset the budget: waiting for your confirmation'],
  ],
  AuthorityDeclined: [
    [{ action: 'role', target: LONG_ROLE, by: 'user' }, `Switch to role ${LONG_ROLE} declined by user`],
    [{ action: 'reset', by: 'user' }, 'Budget reset declined by user'],
  ],
  SubagentStarted: [
    [{ agentSession: 'abc', agentType: 'Explore' }, 'Sub-agent Explore started in session abc'],
    [{ agentSession: 'abc' }, 'Sub-agent ? started in session abc'],
  ],
  SubagentStopped: [[{ agentSession: 'abc', agentId: 'a1' }, 'Sub-agent a1 stopped in session abc']],
  Compacted: [[{ agentSession: 'abc' }, 'Context compacted in session abc']],
  NetworkRefused: [
    [{ host: 'evil.example', port: 443, commandRole: 'reviewer', command: 'curl https://evil.example' }, 'Sandbox refused a connection to evil.example (role reviewer): curl https://evil.example'],
    [{ host: 'evil.example', port: 443, command: LONG_COMMAND }, `Sandbox refused a connection to evil.example (role coder): ${shortenMiddle(LONG_COMMAND)}`],
  ],
};

test('every event type reads as one English sentence, short and long values alike', () => {
  for (const type of EVENT_TYPES) {
    assert.ok(CASES[type].length > 0, type);
    for (const [payload, sentence] of CASES[type]) assert.equal(summarizeEvent(ev({ type, ...payload })), sentence, `${type} ${JSON.stringify(payload)}`);
  }
});

test('a long path or command is shortened in the middle, keeping both ends; names are never cut', () => {
  const short = shortenMiddle(LONG_PATH);
  assert.equal(short, '/home/someone/projects/…/.vscode/settings.json');
  assert.ok(short.length <= MAX_VALUE);
  assert.equal(shortenMiddle(LONG_COMMAND), 'npm run build -- --confi…test -- --reporter spec');
  assert.equal(shortenMiddle(LONG_COMMAND).length, MAX_VALUE);
  assert.equal(shortenMiddle('.vscode/settings.json'), '.vscode/settings.json');
  assert.ok(summarizeEvent(ev({ type: 'RoleChanged', from: LONG_ROLE, to: LONG_ROLE })).endsWith(`to ${LONG_ROLE}`));
});

test('prose is cut at a word boundary near its end, and its line breaks flattened', () => {
  assert.equal(shortenEnd('a\n  b'), 'a b');
  assert.equal(shortenEnd('one two three four five', 16), 'one two three…');
  assert.equal(shortenEnd('abcdefghijklmnop', 8), 'abcdefg…');
});

test('an event type a newer version writes shows its payload, shortened', () => {
  assert.deepEqual(describeEvent(ev({ type: 'Future', a: 1 })), { kind: 'other', args: ['Future {"a":1}'] });
});

test('numbers stay numbers for the host to group in the user\'s language', () => {
  assert.deepEqual(describeEvent(ev({ type: 'ModelUsage', model: 'm', inputTokens: 120000, outputTokens: 80 })), { kind: 'modelUsage', args: ['m', 120000, 80] });
});

test('every sentence template has its Spanish text with the same placeholders', () => {
  const spanish = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', '..', '..', '..', 'l10n', 'bundle.l10n.es.json'), 'utf8')) as Record<string, string>;
  const placeholders = (s: string) => [...s.matchAll(/\{\d+\}/g)].map((m) => m[0]).sort();
  for (const template of Object.values(SUMMARY_TEMPLATES)) {
    assert.equal(typeof spanish[template], 'string', template);
    assert.deepEqual(placeholders(spanish[template]!), placeholders(template), template);
  }
});
