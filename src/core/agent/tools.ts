/**
 * Alfred's workspace tools for the headless agent loop: the core operations (read, search, tree,
 * edit, shell) behind the same rules as the ctx_* language-model tools — input validated against
 * the contract, then the one governed call (gate → run → charge → warning), exec calls persisted
 * as operations before they start, shell output compressed under `compress`.
 */
import { governedCall } from '../harness/governedCall';
import type { Harness } from '../harness/harness';
import { runOperation } from '../workflow/operations/lifecycle';
import { compressShellOutput } from '../rules/policy/compress';
import { rolePermits } from '../rules/policy/gate';
import type { RefusalCode } from '../rules/vocabulary/types';
import { toolCall } from '../rules/policy/toolCall';
import type { Role } from '../rules/roles/types';
import { contractOf, TOOL_CONTRACTS } from '../tools/contracts';
import { editOp } from '../tools/ops/edit';
import type { OpResult } from '../tools/ops/errors';
import { readFileOp } from '../tools/ops/read';
import { searchOp } from '../tools/ops/search';
import { shellOp } from '../tools/ops/shell';
import { treeOp } from '../tools/ops/tree';
import { validateToolInput } from '../tools/validate';
import type { ToolDefinition } from '../models/providers/types';

type Op = (harness: Harness, input: Record<string, unknown>, ctx: { signal: AbortSignal; env: Record<string, string> }) => Promise<OpResult>;

/* eslint-disable @typescript-eslint/no-explicit-any -- each input was validated against its contract's schema just before */
const OPS: Readonly<Record<string, Op>> = {
  ctx_read: (h, input) => readFileOp(h.workspaceFolder, input as any),
  ctx_search: (h, input) => searchOp(h.workspaceFolder, input as any),
  ctx_tree: (h, input) => treeOp(h.workspaceFolder, input as any),
  ctx_edit: (h, input) => editOp(h.workspaceFolder, input as any),
  // Planned on every call: the role and the protected paths may have changed since the last one.
  ctx_shell: (h, input, ctx) => shellOp(h.workspaceFolder, input as any, { signal: ctx.signal, env: { ...h.env, ...ctx.env }, sandbox: h.sandboxPlan() }),
};
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The tools the headless loop can run, in the contracts' order. */
export const AGENT_TOOLS: readonly string[] = TOOL_CONTRACTS.map((c) => c.name).filter((n) => n in OPS);

/** What the model is offered: the agent tools the role permits (denied tools are never offered). */
export function agentToolsFor(role: Role): ToolDefinition[] {
  return TOOL_CONTRACTS.filter((c) => c.name in OPS && rolePermits(role, c.name))
    .map((c) => ({ name: c.name, description: c.modelDescription, inputSchema: c.inputSchema }));
}

export interface AgentToolResult {
  /** What the model reads: the output (with the budget line at WARNING), the refusal or the error. */
  text: string;
  refused: boolean;
  /** The gate's reason code of a refusal. */
  code?: RefusalCode;
  failed: boolean;
  /** The same for calls that mean the same (name and canonical input): duplicated actions are counted by it. */
  fingerprint: string;
}

export async function runAgentTool(harness: Harness, name: string, input: unknown, opts: { signal: AbortSignal; source: string; model?: string }): Promise<AgentToolResult> {
  const call = toolCall(name, input);
  const op = OPS[name];
  const contract = contractOf(name);
  if (!op || !contract) {
    // Still through the gate, so the refusal is decided and logged like any other.
    const outcome = await governedCall(harness, call, { source: opts.source, ...(opts.model ? { model: opts.model } : {}) }, () => Promise.reject(new Error(`${name} is not a tool of this agent.`)));
    if (outcome.kind === 'refused') return refused(outcome.refusal.message, call.fingerprint, outcome.refusal.details.code);
    return { text: `Unknown tool "${name}": use one of ${AGENT_TOOLS.join(', ')}.`, refused: false, failed: true, fingerprint: call.fingerprint };
  }
  const valid = validateToolInput<Record<string, unknown>>(name, call.input);
  if (!valid.ok) {
    await harness.record([{ type: 'ToolCall', phase: 'decision', tool: name, decision: 'deny', code: 'invalid-input', reason: valid.error, source: opts.source }]);
    return refused(valid.error, call.fingerprint, 'invalid-input');
  }
  const exec = contract.effect === 'exec' || contract.effect === 'write-external';
  const outcome = await governedCall(harness, call, { source: opts.source, ...(opts.model ? { model: opts.model } : {}) }, async () => {
    const result = exec
      ? await runOperation(harness, { tool: name, effect: contract.effect, args: valid.value, source: opts.source }, (run) => op(harness, valid.value, { signal: opts.signal, env: run.env }))
      : await op(harness, valid.value, { signal: opts.signal, env: {} });
    const compress = contract.effect === 'exec' && harness.activeRole().role.shellPolicy === 'compress';
    return { value: result, output: compress ? compressShellOutput(result.text, result.data.exitCode as number | null | undefined) : result.text };
  });
  if (outcome.kind === 'refused') return refused(outcome.refusal.message, call.fingerprint, outcome.refusal.details.code);
  if (outcome.kind === 'failed') return { text: outcome.error.message, refused: false, failed: true, fingerprint: call.fingerprint };
  return { text: outcome.output + (outcome.warning ?? ''), refused: false, failed: false, fingerprint: call.fingerprint };
}

function refused(text: string, fingerprint: string, code: RefusalCode | undefined): AgentToolResult {
  return { text, refused: true, failed: false, fingerprint, ...(code ? { code } : {}) };
}
