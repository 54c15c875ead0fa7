/**
 * (a) The gate's decision for a role with 50 patterns (globs and @categories, allowed and denied)
 * and a budget, over a mix of tools. Target: median under 20 µs a call. Baseline: `Set.has` on the
 * same tool names, in the same run. Also shown, without a target: an edit's protected-path check,
 * which is file-system calls (realpath of the workspace, the state folder and the target).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { budgetStatus, formatBudgetLine } from '../src/core/rules/budget/status';
import { decide, type GateInput } from '../src/core/rules/policy/gate';
import { toolCall } from '../src/core/rules/policy/toolCall';
import type { Role } from '../src/core/rules/roles/types';
import { finish, median, nowMs, tempDir, verdict } from './util';

const TARGET_US = 20;

const ALLOWED = [
  '@read', '@search', '@session', '@edit', 'ctx_*', 'mcp__github__*', 'mcp__jira__get_*', 'mcp_*_list_*', 'execute/*', 'read/*',
  'Bash', 'run_in_terminal', 'runTests', 'get_terminal_output', 'BashOutput', '{fetch,web_fetch}', 'WebFetch', 'Task', 'TodoWrite',
  'manage_todo_list', 'github-*', 'notebook_*', 'create_*', 'apply_patch', 'think', 'report_intent', 'update_todo', 'memory',
  'mcp__*__search*', 'vscode_*',
];
const DENIED = [
  '@web', 'mcp__github__delete_*', 'mcp__*__drop*', '*_secret*', 'rm_*', 'kill_*', '*Delete*', 'mcp__prod__*', 'install_extension',
  'run_vscode_command', 'create_new_workspace', 'powershell', 'REPL', 'Monitor', 'KillShell', 'KillBash', 'github-delete*',
  'switch_agent', '@task', '?ash_unsafe',
];

const ws = tempDir('gate');
fs.mkdirSync(path.join(ws, 'src'));
fs.writeFileSync(path.join(ws, 'src', 'a.ts'), 'export {};\n');
fs.mkdirSync(path.join(ws, '.state'));
const role: Role = {
  name: 'bench', source: 'project', path: path.join(ws, '.alfred/roles/bench.toml'), description: 'bench', shellPolicy: 'track', sandbox: 'auto',
  failClosed: false, tools: { allowed: ALLOWED, denied: DENIED },
  limits: { maxContextTokens: 200_000, maxShellInvocations: 100, maxCostUsd: 5, warnAtPercent: 80, blockAtPercent: 100 },
};
const budget = budgetStatus(role, { tokens: 51_234, shell: 12, costUsd: 0.42 }, false);
const protectedPaths = { globs: ['tests/**', 'package-lock.json'], workspaceFolder: ws, stateDir: path.join(ws, '.state') };

const CALLS: [string, unknown][] = [
  ['read_file', { filePath: 'src/a.ts' }], ['run_in_terminal', { command: 'npm test' }], ['mcp__github__create_issue', {}],
  ['mcp__github__delete_repo', {}], ['Edit', { file_path: 'src/a.ts' }], ['replace_string_in_file', { filePath: 'tests/a.test.ts' }],
  ['fetch_webpage', { urls: ['https://example.com'] }], ['ctx_session', { action: 'budget' }], ['unknown_tool', {}],
  ['execute/runInTerminal', { command: 'ls' }], ['mcp__jira__get_ticket', {}], ['github-list_issues', {}],
];
// Each call is read once where it enters (policy/toolCall.ts), before the gate: not part of the decision.
const inputs: GateInput[] = CALLS.map(([tool, toolInput]) => ({ role, call: toolCall(tool, toolInput), budget, budgetLine: formatBudgetLine(budget) }));
const edit: GateInput = { role, call: toolCall('replace_string_in_file', { filePath: 'src/a.ts' }), budget, protectedPaths };
if (ALLOWED.length + DENIED.length !== 50) throw new Error('the role must have 50 patterns');

/** Median over `samples` of the mean time per call of `batch` calls of `fn(i)`, in µs. */
function perCallUs(fn: (i: number) => unknown, samples = 300, batch = 240): number {
  let sink = 0;
  for (let i = 0; i < 20_000; i++) sink += fn(i) ? 1 : 0; // warm up the JIT and the pattern caches
  const times: number[] = [];
  for (let s = 0; s < samples; s++) {
    const t0 = nowMs();
    for (let i = 0; i < batch; i++) sink += fn(i) ? 1 : 0;
    times.push(((nowMs() - t0) * 1000) / batch);
  }
  if (sink < 0) console.log(sink);
  return median(times);
}

const names = new Set(CALLS.map(([t]) => t));
const probe = CALLS.map(([t], i) => (i % 2 ? t : `${t}_x`));
const baseline = perCallUs((i) => names.has(probe[i % probe.length]!));
const gate = perCallUs((i) => decide(inputs[i % inputs.length]!).allowed);
const allowedCount = inputs.filter((x) => decide(x).allowed).length;
const editUs = perCallUs(() => decide(edit).allowed, 50, 100);

console.log(`gate.decide: role with ${ALLOWED.length} allowed + ${DENIED.length} denied patterns, ${inputs.length} calls (${allowedCount} allowed, ${inputs.length - allowedCount} refused)`);
console.log(`gate.decide + protected-path check of one edit (file system, no target): median ${editUs.toFixed(1)} µs/call`);
verdict('gate.decide', `median ${gate.toFixed(2)} µs/call | baseline Set.has ${(baseline * 1000).toFixed(1)} ns/call | ratio ${(gate / baseline).toFixed(0)}× | target < ${TARGET_US} µs`, gate < TARGET_US);
fs.rmSync(ws, { recursive: true, force: true });
finish();
