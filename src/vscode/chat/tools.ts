import * as vscode from 'vscode';
import { offersTool } from '../../core/turn/chatTools';
import { governedCall, GovernedRefusal } from '../../core/harness/governedCall';
import type { Harness } from '../../core/harness/harness';
import { rolePermits } from '../../core/rules/policy/gate';
import type { McpTrust } from '../../core/rules/policy/mcpTrust';
import { toolCall } from '../../core/rules/policy/toolCall';
import type { Role } from '../../core/rules/roles/types';
import { TOOL_CONTRACTS } from '../../core/tools/contracts';
import { prompts } from '../prompts';
import { raceCancellation } from './cancel';

/** Alfred's own tools run the gate inside `invoke`; every other tool is gated here, by the loop. */
const ALFRED_TOOLS: ReadonlySet<string> = new Set(TOOL_CONTRACTS.map((c) => c.name));

export function isAlfredTool(name: string): boolean {
  return ALFRED_TOOLS.has(name);
}

/**
 * The tools the model may see: registered tools the role permits (tool lists, shell policy, and with
 * the latest MCP audit its [mcp] rules) and the user offers (`chosen`: Alfred's own by default, others
 * by alfred.chatTools and `/tools add`; core/turn/chatTools.ts); denied tools are never offered.
 * Alfred's come first, so a model's tool limit keeps them.
 */
export function offeredTools(role: Role, limit?: number, mcpTrust?: McpTrust, chosen: readonly string[] = []): vscode.LanguageModelChatTool[] {
  const permitted = vscode.lm.tools.filter((t) => offersTool(t.name, isAlfredTool(t.name), chosen) && rolePermits(role, t.name, mcpTrust));
  const ordered = [...permitted.filter((t) => isAlfredTool(t.name)), ...permitted.filter((t) => !isAlfredTool(t.name))];
  const tools = ordered.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  return typeof limit === 'number' && limit > 0 ? tools.slice(0, limit) : tools;
}

export interface ToolCallOutcome {
  part: vscode.LanguageModelToolResultPart;
  /** The result as text, for the chat history and token counts. */
  text: string;
  refused: boolean;
}

export interface ToolCallContext {
  harness: Harness;
  model: vscode.LanguageModelChat;
  toolInvocationToken: vscode.ChatParticipantToolToken | undefined;
  token: vscode.CancellationToken;
}

export function resultText(result: vscode.LanguageModelToolResult): string {
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

const textResult = (callId: string, text: string): vscode.LanguageModelToolResultPart =>
  new vscode.LanguageModelToolResultPart(callId, [new vscode.LanguageModelTextPart(text)]);

/**
 * Runs one tool call the model asked for. A refusal (by the gate, here or inside Alfred's tools) or
 * a tool's error comes back to the model as the tool result, so it can change course. Alfred's own
 * tools run the governed call inside `invoke`; their refusal is a GovernedRefusal, told apart from a
 * failure per call.
 */
export async function runToolCall(ctx: ToolCallContext, call: vscode.LanguageModelToolCallPart): Promise<ToolCallOutcome> {
  const invoke = (): Promise<vscode.LanguageModelToolResult> => raceCancellation(
    vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: ctx.toolInvocationToken }, ctx.token),
    ctx.token,
  );
  if (isAlfredTool(call.name)) {
    try {
      const result = await invoke();
      return { part: new vscode.LanguageModelToolResultPart(call.callId, result.content), text: resultText(result), refused: false };
    } catch (err) {
      if (ctx.token.isCancellationRequested) throw err;
      return failedOrRefused(call, err, GovernedRefusal.isRefusal(err));
    }
  }
  const outcome = await governedCall(ctx.harness, toolCall(call.name, call.input), { source: 'chat', model: ctx.model.id }, async () => {
    const result = await invoke();
    return { value: result, output: resultText(result) };
  }, confirmTool);
  if (outcome.kind === 'refused') return failedOrRefused(call, outcome.refusal, true);
  if (outcome.kind === 'failed') {
    if (ctx.token.isCancellationRequested) throw outcome.error;
    return failedOrRefused(call, outcome.error, false);
  }
  const content = [...outcome.value.content];
  if (outcome.warning) content.push(new vscode.LanguageModelTextPart(outcome.warning));
  return { part: new vscode.LanguageModelToolResultPart(call.callId, content), text: outcome.output + (outcome.warning ?? ''), refused: false };
}

/** The role asks the user before this tool runs ([mcp] ... = "ask"): a modal (prompts.ts), so it cannot be missed. */
function confirmTool(reason: string): Promise<boolean> {
  return prompts.confirm(reason, vscode.l10n.t('Alfred asks before this tool runs.'), vscode.l10n.t('Run the tool'));
}

/** A refusal's or a failing tool's message: either way the model learns what happened. */
function failedOrRefused(call: vscode.LanguageModelToolCallPart, err: unknown, refused: boolean): ToolCallOutcome {
  const text = (err as Error).message || String(err);
  return { part: textResult(call.callId, text), text, refused };
}
