/**
 * Claude Code's model usage, read at each of its hooks from the transcript the hook names
 * (`transcript_path`): only the lines appended since the last hook (FileTail), each API message once
 * (ClaudeTranscriptReader), charged once (chargeMeasured's ids). Where each transcript was left is
 * kept in the state folder; two hooks reading at once may read the same lines, and the ledger's ids
 * keep the charge exact. Within one process (the hook server) the reads of a state folder take turns,
 * each starting where the last one saved, and the saving does not hold up the event loop.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { atomicWriteAsync } from '../base/fs/atomicWrite';
import { ClaudeTranscriptReader, type ClaudeTranscriptState, type TranscriptUsage } from './claudeTranscript';
import { inTurn } from './inTurn';
import { FileTail, type TailState } from './tail';
import type { ModelUsageRecord } from './types';
import { isObject } from '../base/isObject';

export const TRANSCRIPTS_FILE = 'claude-transcripts.json';
/** Transcripts remembered at once (one per Claude Code session that ran here lately). */
const MAX_TRANSCRIPTS = 32;

interface Place { tail?: TailState; reader?: ClaudeTranscriptState; at: string }
type Places = Record<string, Place>;

function load(stateDir: string): Places {
  try {
    const data = JSON.parse(fs.readFileSync(path.join(stateDir, TRANSCRIPTS_FILE), 'utf8')) as unknown;
    return isObject(data) ? (data as Places) : {};
  } catch {
    return {};
  }
}

function save(stateDir: string, places: Places): Promise<void> {
  const kept = Object.entries(places).sort((a, b) => b[1].at.localeCompare(a[1].at)).slice(0, MAX_TRANSCRIPTS);
  // No fsync (this runs in hooks): a place lost with a power cut is read again, and the ledger's ids charge each request once.
  return atomicWriteAsync(path.join(stateDir, TRANSCRIPTS_FILE), JSON.stringify(Object.fromEntries(kept)), { fsync: false });
}

export function usageRecordOf(r: TranscriptUsage, now: string): ModelUsageRecord {
  return {
    id: r.key, source: 'claude-transcript', ...(r.sessionId ? { sessionId: r.sessionId } : {}), model: r.model,
    inputTokens: r.inputTokens, outputTokens: r.outputTokens, cachedInputTokens: r.cachedInputTokens,
    cacheCreationInputTokens: r.cacheCreationInputTokens, reasoningTokens: 0, at: r.timestamp ?? now, measured: true,
  };
}

/** Sub-agents' transcripts beside a session's (`<session>/subagents/agent-*.jsonl`): their usage is the session's. */
const MAX_SUBAGENT_FILES = 64;

function subagentTranscripts(transcript: string): string[] {
  const dir = path.join(path.dirname(transcript), path.basename(transcript, '.jsonl'), 'subagents');
  try {
    return fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort().slice(0, MAX_SUBAGENT_FILES).map((f) => path.join(dir, f));
  } catch {
    return [];
  }
}

/** The usage records of the API messages completed since the last read of `transcript` and its sub-agents' transcripts. */
export async function readNewClaudeUsage(stateDir: string, transcript: string, now: Date = new Date()): Promise<ModelUsageRecord[]> {
  return (await inTurn(path.join(stateDir, TRANSCRIPTS_FILE), () => readNew(stateDir, transcript, now))).records;
}

/** At most this long Stop waits for the answer that ends the turn. */
export const STOP_WAIT_MS = 2000;
const STOP_POLL_MS = 25;

/**
 * At Claude Code's Stop, as readNewClaudeUsage, but while the transcript leaves the turn open (its
 * last line a prompt or a tool's result) it is read again until the answer that ends the turn is
 * there, for at most `waitMs`. Claude Code writes its transcript behind: the turn's last answer may
 * land after its Stop hook has run (2.1.328, measured), and no hook of that session comes later to
 * charge it.
 */
export async function readClaudeUsageAtStop(stateDir: string, transcript: string, waitMs = STOP_WAIT_MS): Promise<ModelUsageRecord[]> {
  const deadline = Date.now() + waitMs;
  const records: ModelUsageRecord[] = [];
  for (;;) {
    const read = await inTurn(path.join(stateDir, TRANSCRIPTS_FILE), () => readNew(stateDir, transcript, new Date()));
    records.push(...read.records);
    if (!read.turnOpen || Date.now() >= deadline) return records;
    await new Promise((resolve) => setTimeout(resolve, STOP_POLL_MS));
  }
}

async function readNew(stateDir: string, transcript: string, now: Date): Promise<{ records: ModelUsageRecord[]; turnOpen: boolean }> {
  const places = load(stateDir);
  const records: ModelUsageRecord[] = [];
  let turnOpen = false;
  for (const file of [transcript, ...subagentTranscripts(transcript)]) {
    const place = places[file] ?? { at: now.toISOString() };
    const tail = new FileTail(file, place.tail);
    const reader = ClaudeTranscriptReader.fromJSON(place.reader ?? null);
    for (let round = 0; round < 64; round++) {
      const read = tail.read();
      if (read.lines.length > 0) records.push(...reader.read(`${read.lines.join('\n')}\n`).map((r) => usageRecordOf(r, now.toISOString())));
      if (!read.more) break;
    }
    places[file] = { ...(tail.state ? { tail: tail.state } : {}), reader: reader.toJSON(), at: now.toISOString() };
    if (file === transcript) turnOpen = reader.turnOpen;
  }
  await save(stateDir, places);
  return { records, turnOpen };
}
