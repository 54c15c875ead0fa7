/**
 * A model request's usage as its provider reported it in the response, in a data part. The stable
 * API reports no usage, so this is what providers add, in one of two shapes:
 * - mime type exactly `usage`: OpenAI's usage object itself, which Copilot in VS Code reads from
 *   extension-provided models: `{prompt_tokens, completion_tokens, total_tokens,
 *   prompt_tokens_details: {cached_tokens}}`; cached tokens are part of `prompt_tokens`;
 * - a JSON mime type holding `{usage: {inputTokens, outputTokens, cachedInputTokens?}}` (Alfred's
 *   spelling), also read in OpenAI's.
 */
import { isObject } from '../../base/isObject';

export interface ReportedUsage {
  /** All input tokens, cached ones included. */
  inputTokens: number;
  outputTokens: number;
  /** Cache reads, part of `inputTokens`. */
  cachedInputTokens: number;
}

/** A usage report is a few hundred bytes; anything far larger is not one (and is not parsed). */
const MAX_BYTES = 64 * 1024;

const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);

function parse(data: Uint8Array): unknown {
  if (data.byteLength > MAX_BYTES) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(data)) as unknown;
  } catch {
    return undefined;
  }
}

const objectOf = (v: unknown): Record<string, unknown> | undefined => (isObject(v) ? v : undefined);

/** Cached tokens never exceed the input; a bad count reads as none (the input is then priced in full). */
function withCached(input: number, output: number, cached: unknown): ReportedUsage {
  return { inputTokens: input, outputTokens: output, cachedInputTokens: Math.min(input, count(cached) ?? 0) };
}

/** OpenAI's usage object (Copilot's `usage` data part); both counts must be there. */
function openAiUsage(u: Record<string, unknown>): ReportedUsage | undefined {
  const input = count(u.prompt_tokens);
  const output = count(u.completion_tokens);
  if (input === undefined || output === undefined) return undefined;
  return withCached(input, output, objectOf(u.prompt_tokens_details)?.cached_tokens);
}

/** The usage in a response's data part, or undefined when the part is not a usage report. */
export function parseReportedUsage(mimeType: string, data: Uint8Array): ReportedUsage | undefined {
  if (mimeType === 'usage') {
    const u = objectOf(parse(data));
    return u ? openAiUsage(u) : undefined;
  }
  if (!/json/i.test(mimeType)) return undefined;
  const u = objectOf(objectOf(parse(data))?.usage);
  if (!u) return undefined;
  const input = count(u.inputTokens) ?? count(u.promptTokens) ?? count(u.prompt_tokens) ?? count(u.input_tokens);
  const output = count(u.outputTokens) ?? count(u.completionTokens) ?? count(u.completion_tokens) ?? count(u.output_tokens);
  if (input === undefined || output === undefined) return undefined;
  return withCached(input, output, u.cachedInputTokens ?? objectOf(u.prompt_tokens_details)?.cached_tokens);
}
