import * as vscode from 'vscode';
import type { Harness } from '../../core/harness';
import { rolePermits } from '../../core/policy/gate';
import type { Role } from '../../core/roles/types';
import { TOOL_CONTRACTS } from '../../core/tools/contracts';
import { raceCancellation } from './cancel';

/** Alfred's own tools run the gate inside `invoke`; every other tool is gated here, by the loop. */
const ALFRED_TOOLS: ReadonlySet<string> = new Set(TOOL_CONTRACTS.map((c) => c.name));

export function isAlfredTool(name: string): boolean {
  return ALFRED_TOOLS.has(name);
}

/**
 * The tools the model may see: every registered tool the role permits (tool lists and shell policy);
 * denied tools are never offered. Alfred's come first, so a model's tool limit keeps them.
 */
export function offeredTools(role: Role, limit?: number): vscode.LanguageModelChatTool[] {
  const permitted = vscode.lm.tools.filter((t) => rolePermits(role, t.name));
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
 * a tool's error comes back to the model as the tool result, so it can change course.
 */
export async function runToolCall(ctx: ToolCallContext, call: vscode.LanguageModelToolCallPart): Promise<ToolCallOutcome> {
  const { harness } = ctx;
  const own = isAlfredTool(call.name);
  if (!own) {
    const gate = await harness.authorize({ tool: call.name, toolInput: call.input, source: 'chat', model: ctx.model.id });
    if (!gate.decision.allowed) {
      const text = gate.decision.reason ?? `${call.name} was refused by role ${gate.status.role}.`;
      return { part: textResult(call.callId, text), text, refused: true };
    }
  }
  let result: vscode.LanguageModelToolResult;
  // Alfred's tools refuse inside invoke: their gate's PolicyViolation tells a refusal from a failure.
  let violated = false;
  const stopWatching = harness.bus.on((e) => { if (e.type === 'PolicyViolation' && e.tool === call.name) violated = true; });
  try {
    result = await raceCancellation(
      vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: ctx.toolInvocationToken }, ctx.token),
      ctx.token,
    );
  } catch (err) {
    if (ctx.token.isCancellationRequested) throw err;
    // A refusal or a failing tool's message: either way the model learns what happened.
    const text = (err as Error).message || String(err);
    return { part: textResult(call.callId, text), text, refused: violated };
  } finally {
    stopWatching();
  }
  let text = resultText(result);
  if (own) return { part: new vscode.LanguageModelToolResultPart(call.callId, result.content), text, refused: false };
  const charged = await harness.chargeOutput({ tool: call.name, output: text, source: 'chat', model: ctx.model.id });
  const content = [...result.content];
  if (charged.status.signal !== 'OK') {
    const warning = `\n\n⚠ ${charged.line}`;
    text += warning;
    content.push(new vscode.LanguageModelTextPart(warning));
  }
  return { part: new vscode.LanguageModelToolResultPart(call.callId, content), text, refused: false };
}
