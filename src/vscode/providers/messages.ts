import * as vscode from 'vscode';
import type { ChatMessage, ChatRequest, RequestPart, ToolDefinition } from '../../core/models/providers/types';

/** VS Code's request messages in the core's neutral form (what the protocol clients send). */
export function toChatMessages(messages: readonly vscode.LanguageModelChatRequestMessage[]): ChatMessage[] {
  return messages.map((m) => ({
    role: m.role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : m.role === vscode.LanguageModelChatMessageRole.User ? 'user' : 'system',
    parts: m.content.flatMap(partOf),
  }));
}

function partOf(part: unknown): RequestPart[] {
  if (part instanceof vscode.LanguageModelTextPart) return [{ type: 'text', text: part.value }];
  if (part instanceof vscode.LanguageModelToolCallPart) return [{ type: 'toolCall', callId: part.callId, name: part.name, input: part.input }];
  if (part instanceof vscode.LanguageModelToolResultPart) {
    const content = part.content.map((c) => (c instanceof vscode.LanguageModelTextPart ? c.value : '')).join('');
    return [{ type: 'toolResult', callId: part.callId, content }];
  }
  if (part instanceof vscode.LanguageModelDataPart && part.mimeType.startsWith('image/')) return [{ type: 'image', mimeType: part.mimeType, data: part.data }];
  // Other data parts (cache hints, Copilot's own markers) mean nothing to an endpoint.
  return [];
}

export function toChatRequest(modelId: string, messages: readonly vscode.LanguageModelChatRequestMessage[], options: vscode.ProvideLanguageModelChatResponseOptions): ChatRequest {
  const tools: ToolDefinition[] = (options.tools ?? []).map((t) => ({ name: t.name, description: t.description, ...(t.inputSchema ? { inputSchema: t.inputSchema } : {}) }));
  const max = (options.modelOptions as Record<string, unknown> | undefined)?.max_tokens;
  return {
    model: modelId,
    messages: toChatMessages(messages),
    ...(tools.length ? { tools } : {}),
    ...(options.toolMode === vscode.LanguageModelChatToolMode.Required ? { toolMode: 'required' as const } : {}),
    ...(typeof max === 'number' && max > 0 ? { maxOutputTokens: Math.floor(max) } : {}),
  };
}
