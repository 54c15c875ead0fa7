/**
 * Gemini CLI's model usage, read at each of its hooks from the session file the hook names
 * (`transcript_path`, JSON lines under `~/.gemini/tmp/<project>/chats/`), as Claude Code's is read
 * (claudeIngest.ts): only the lines appended since the last hook (FileTail), where each file was left
 * kept in the state folder, each model message charged once (chargeMeasured's ids).
 *
 * Format (@google/gemini-cli 0.61.0, its ChatRecordingService): the first line holds the session's
 * metadata (`sessionId`); a model answer is a line `{id, timestamp, type: "gemini", model, tokens}`,
 * written again under the same id once its usage is known. `tokens` is the response's usageMetadata:
 * `input` (promptTokenCount, cached included), `cached`, `output` (candidates), `thoughts` and `tool`
 * (tool-use prompt tokens), billed as input and output beside the first two.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { atomicWriteAsync } from '../base/fs/atomicWrite';
import { inTurn } from './inTurn';
import { FileTail, type TailState } from './tail';
import type { ModelUsageRecord } from './types';

export const GEMINI_TRANSCRIPTS_FILE = 'gemini-transcripts.json';
const MAX_TRANSCRIPTS = 32;

interface Place { tail?: TailState; sessionId?: string; at: string }
type Places = Record<string, Place>;

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);
const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The usage record of one transcript line, or undefined for a line that is not a model answer with its usage. */
export function geminiUsageOf(line: string, sessionId: string | undefined, now: string): ModelUsageRecord | undefined {
  let data: unknown;
  try {
    data = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(data) || data.type !== 'gemini' || typeof data.id !== 'string' || !isRecord(data.tokens)) return undefined;
  const t = data.tokens;
  const input = num(t.input) + num(t.tool);
  const thoughts = num(t.thoughts);
  const output = num(t.output) + thoughts;
  if (input === 0 && output === 0) return undefined;
  return {
    id: `gemini:${data.id}`, source: 'gemini-transcript', ...(sessionId ? { sessionId } : {}),
    model: typeof data.model === 'string' && data.model ? data.model : 'gemini',
    inputTokens: input, outputTokens: output, cachedInputTokens: Math.min(num(t.cached), input), cacheCreationInputTokens: 0,
    reasoningTokens: thoughts, at: typeof data.timestamp === 'string' ? data.timestamp : now, measured: true,
  };
}

function load(stateDir: string): Places {
  try {
    const data = JSON.parse(fs.readFileSync(path.join(stateDir, GEMINI_TRANSCRIPTS_FILE), 'utf8')) as unknown;
    return isRecord(data) ? (data as Places) : {};
  } catch {
    return {};
  }
}

/** Saved without holding up the event loop (the hook server runs in the extension host), as Claude Code's places are. */
function save(stateDir: string, places: Places): Promise<void> {
  const kept = Object.entries(places).sort((a, b) => b[1].at.localeCompare(a[1].at)).slice(0, MAX_TRANSCRIPTS);
  return atomicWriteAsync(path.join(stateDir, GEMINI_TRANSCRIPTS_FILE), JSON.stringify(Object.fromEntries(kept)), { fsync: false });
}

/** The usage records of the model answers written to `transcript` since its last read; reads of one state folder take turns (inTurn.ts). */
export function readNewGeminiUsage(stateDir: string, transcript: string, now: Date = new Date()): Promise<ModelUsageRecord[]> {
  return inTurn(path.join(stateDir, GEMINI_TRANSCRIPTS_FILE), () => readNew(stateDir, transcript, now));
}

async function readNew(stateDir: string, transcript: string, now: Date): Promise<ModelUsageRecord[]> {
  const places = load(stateDir);
  const place = places[transcript] ?? { at: now.toISOString() };
  const tail = new FileTail(transcript, place.tail);
  let sessionId = place.sessionId;
  const records: ModelUsageRecord[] = [];
  for (let round = 0; round < 64; round++) {
    const read = tail.read();
    for (const line of read.lines) {
      if (sessionId === undefined && line.includes('"sessionId"')) {
        try {
          const meta = JSON.parse(line) as unknown;
          if (isRecord(meta) && typeof meta.sessionId === 'string') sessionId = meta.sessionId;
        } catch {
          // not the metadata line
        }
      }
      const record = geminiUsageOf(line, sessionId, now.toISOString());
      if (record) records.push(record);
    }
    if (!read.more) break;
  }
  places[transcript] = { ...(tail.state ? { tail: tail.state } : {}), ...(sessionId ? { sessionId } : {}), at: now.toISOString() };
  await save(stateDir, places);
  return records;
}
