/** Gemini's generateContent and streamGenerateContent for the scripted model: the turn a request is at, the answer, the tool results it carries. */
import { sse, type Reply, type SeenToolResult } from './server';

type Json = Record<string, unknown>;
type Part = Json & { functionCall?: Json; functionResponse?: Json };

function parts(body: Json, role: string): Part[] {
  const contents = Array.isArray(body.contents) ? body.contents as Json[] : [];
  return contents.filter((c) => c.role === role).flatMap((c) => Array.isArray(c.parts) ? c.parts as Part[] : []);
}

export function geminiTurn(body: Json): number {
  return parts(body, 'model').filter((p) => p.functionCall).length;
}

export function geminiToolResults(body: Json): SeenToolResult[] {
  return parts(body, 'user').filter((p) => p.functionResponse).map((p) => ({
    callId: String(p.functionResponse!.id ?? p.functionResponse!.name),
    output: JSON.stringify(p.functionResponse!.response ?? ''),
  }));
}

export function geminiReply(reply: Reply, stream: boolean): string[] | Json {
  const content = {
    role: 'model',
    parts: [...(reply.text ? [{ text: reply.text }] : []), ...reply.calls.map((c) => ({ functionCall: { id: c.id, name: c.name, args: c.args } }))],
  };
  const usageMetadata = {
    promptTokenCount: reply.usage.inputTokens, candidatesTokenCount: reply.usage.outputTokens,
    totalTokenCount: reply.usage.inputTokens + reply.usage.outputTokens, cachedContentTokenCount: reply.usage.cachedInputTokens ?? 0,
  };
  const answer = { candidates: [{ content, finishReason: 'STOP', index: 0 }], usageMetadata, modelVersion: reply.model, responseId: `r${reply.id}` };
  return stream ? [sse(answer)] : answer;
}
