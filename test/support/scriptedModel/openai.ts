/**
 * OpenAI's chat completions and Responses API for the scripted model: the turn a request is at, the
 * answer (SSE or JSON), the tool results it carries. The Responses events are those Codex reads.
 */
import { sse, type Reply, type SeenToolResult } from './server';

type Json = Record<string, unknown>;

const text = (v: unknown): string => typeof v === 'string' ? v
  : Array.isArray(v) ? v.map((p: Json) => String(p.text ?? p.output ?? '')).join('\n') : JSON.stringify(v ?? '');

// ── chat completions ──

function chatMessages(body: Json): Json[] {
  return Array.isArray(body.messages) ? body.messages as Json[] : [];
}

export function chatTurn(body: Json): number {
  return chatMessages(body).filter((m) => m.role === 'assistant').reduce((n, m) => n + (Array.isArray(m.tool_calls) ? m.tool_calls.length : 0), 0);
}

export function chatToolResults(body: Json): SeenToolResult[] {
  return chatMessages(body).filter((m) => m.role === 'tool').map((m) => ({ callId: String(m.tool_call_id), output: text(m.content) }));
}

export function chatReply(reply: Reply, stream: boolean): string[] | Json {
  const usage = {
    prompt_tokens: reply.usage.inputTokens, completion_tokens: reply.usage.outputTokens,
    total_tokens: reply.usage.inputTokens + reply.usage.outputTokens, prompt_tokens_details: { cached_tokens: reply.usage.cachedInputTokens ?? 0 },
  };
  const toolCalls = reply.calls.map((c, index) => ({ index, id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } }));
  const finish = reply.calls.length ? 'tool_calls' : 'stop';
  const head = { id: `chatcmpl-${reply.id}`, created: 1_700_000_000, model: reply.model };
  if (!stream) {
    const message = { role: 'assistant', content: reply.text || null, ...(toolCalls.length ? { tool_calls: toolCalls.map(({ index: _i, ...c }) => c) } : {}) };
    return { ...head, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }], usage };
  }
  const chunk = (delta: Json, finishReason: string | null = null) => sse({ ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }] });
  const out = [chunk({ role: 'assistant', content: reply.text })];
  if (toolCalls.length) out.push(chunk({ tool_calls: toolCalls }));
  out.push(chunk({}, finish));
  out.push(sse({ ...head, object: 'chat.completion.chunk', choices: [], usage }));
  out.push('data: [DONE]\n\n');
  return out;
}

// ── Responses ──

function inputItems(body: Json): Json[] {
  return Array.isArray(body.input) ? body.input as Json[] : [];
}

const CALL_TYPES = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);
const OUTPUT_TYPES = new Set(['function_call_output', 'custom_tool_call_output', 'local_shell_call_output']);

export function responsesTurn(body: Json): number {
  return inputItems(body).filter((i) => CALL_TYPES.has(String(i.type))).length;
}

export function responsesToolResults(body: Json): SeenToolResult[] {
  return inputItems(body).filter((i) => OUTPUT_TYPES.has(String(i.type))).map((i) => ({ callId: String(i.call_id), output: text(i.output) }));
}

export function responsesReply(reply: Reply, stream: boolean): string[] | Json {
  const items: Json[] = [
    ...(reply.text ? [{ type: 'message', id: `msg_${reply.id}`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: reply.text, annotations: [] }] }] : []),
    ...reply.calls.map((c) => c.freeform
      ? { type: 'custom_tool_call', id: `ctc_${c.id}`, status: 'completed', call_id: c.id, name: c.name, input: String(c.args.input ?? '') }
      : { type: 'function_call', id: `fc_${c.id}`, status: 'completed', call_id: c.id, name: c.name, arguments: JSON.stringify(c.args) }),
  ];
  const usage = {
    input_tokens: reply.usage.inputTokens, input_tokens_details: { cached_tokens: reply.usage.cachedInputTokens ?? 0 },
    output_tokens: reply.usage.outputTokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: reply.usage.inputTokens + reply.usage.outputTokens,
  };
  const response = { id: `resp_${reply.id}`, object: 'response', created_at: 1_700_000_000, model: reply.model, status: 'completed', output: items, usage };
  if (!stream) return response;
  const out = [sse({ type: 'response.created', response: { ...response, status: 'in_progress', output: [], usage: null } }, 'response.created')];
  items.forEach((item, index) => {
    out.push(sse({ type: 'response.output_item.added', output_index: index, item }, 'response.output_item.added'));
    if (item.type === 'message') out.push(sse({ type: 'response.output_text.delta', output_index: index, content_index: 0, item_id: item.id, delta: reply.text }, 'response.output_text.delta'));
    out.push(sse({ type: 'response.output_item.done', output_index: index, item }, 'response.output_item.done'));
  });
  out.push(sse({ type: 'response.completed', response }, 'response.completed'));
  return out;
}
