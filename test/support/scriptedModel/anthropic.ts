/** Anthropic's messages API for the scripted model: the turn a request is at, the answer (SSE or JSON), the tool results it carries. */
import { sse, type Reply, type SeenToolResult } from './server';

type Json = Record<string, unknown>;
type Block = Json & { type?: string };

function blocks(body: Json, role: string): Block[] {
  const messages = Array.isArray(body.messages) ? body.messages as Json[] : [];
  return messages.filter((m) => m.role === role).flatMap((m) => Array.isArray(m.content) ? m.content as Block[] : []);
}

export function anthropicTurn(body: Json): number {
  return blocks(body, 'assistant').filter((b) => b.type === 'tool_use').length;
}

export function anthropicToolResults(body: Json): SeenToolResult[] {
  return blocks(body, 'user').filter((b) => b.type === 'tool_result').map((b) => ({
    callId: String(b.tool_use_id),
    output: typeof b.content === 'string' ? b.content : (b.content as Block[] | undefined ?? []).map((c) => String(c.text ?? '')).join('\n'),
  }));
}

export function anthropicReply(reply: Reply, stream: boolean): string[] | Json {
  const usage = { input_tokens: reply.usage.inputTokens - (reply.usage.cachedInputTokens ?? 0), cache_creation_input_tokens: 0, cache_read_input_tokens: reply.usage.cachedInputTokens ?? 0 };
  const content: Block[] = [
    ...(reply.text ? [{ type: 'text', text: reply.text }] : []),
    ...reply.calls.map((c) => ({ type: 'tool_use', id: `toolu_${c.id}`, name: c.name, input: c.args })),
  ];
  const stop = reply.calls.length ? 'tool_use' : 'end_turn';
  const message = { id: `msg_${reply.id}`, type: 'message', role: 'assistant', model: reply.model, stop_sequence: null };
  if (!stream) return { ...message, content, stop_reason: stop, usage: { ...usage, output_tokens: reply.usage.outputTokens } };
  const out = [sse({ type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } }, 'message_start')];
  content.forEach((block, index) => {
    const start = block.type === 'text' ? { type: 'text', text: '' } : { ...block, input: {} };
    out.push(sse({ type: 'content_block_start', index, content_block: start }, 'content_block_start'));
    const delta = block.type === 'text' ? { type: 'text_delta', text: block.text } : { type: 'input_json_delta', partial_json: JSON.stringify(block.input) };
    out.push(sse({ type: 'content_block_delta', index, delta }, 'content_block_delta'));
    out.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
  });
  out.push(sse({ type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: reply.usage.outputTokens } }, 'message_delta'));
  out.push(sse({ type: 'message_stop' }, 'message_stop'));
  return out;
}
