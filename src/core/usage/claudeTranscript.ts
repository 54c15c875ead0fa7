/**
 * Reads the model usage of a Claude Code session from its transcript (ARCHITECTURE.md, Cost is measured where
 * it is reported). Pure: the caller tails the file and hands over the
 * newly appended complete lines; this turns them into one record per API message, exactly once.
 *
 * Format facts (from the public sources named below):
 * - Claude Code hooks receive `transcript_path`; the transcript is JSON lines at
 *   `~/.claude/projects/<cwd>/<sessionId>.jsonl`, sub-agents in `<sessionId>/subagents/agent-<id>.jsonl`
 *   whose lines carry `isSidechain: true`, `agentId` and the parent's `sessionId`.
 * - An assistant line holds `message.{id, model, stop_reason, usage}`, `requestId`, `uuid`,
 *   `sessionId`, `isSidechain`, `timestamp` (real sample in "Claude Code Token Metrics: Technical
 *   Appendix"). Usage fields are disjoint: `input_tokens` excludes cache reads and cache writes.
 * - One API response is written as one line per content block, sharing `message.id` and `requestId`;
 *   input and cache fields repeat, `output_tokens` on the lines before the last is a placeholder, the
 *   last (`stop_reason` set) has the real count, and sometimes that last line is never written
 *   (anthropics/claude-code #22686, #22671, #21971, #25941). Some versions write byte-identical copies
 *   (ccstatusline#549); some lines lack `requestId` (tokscale#563). Keying on `uuid` would count each
 *   block; first-seen-wins undercounts output (ccusage#888).
 * - `message.model === "<synthetic>"` lines are Claude Code's own messages, not API calls.
 *
 * The record type is defined here because src/core/usage/types.ts did not exist yet.
 */
import { isObject } from '../base/isObject';

/**
 * One API message's usage as the transcript tells it. claudeIngest.ts turns it into the shared
 * `TranscriptUsage` (types.ts) that the harness charges; the 5m/1h cache split is kept here only.
 */
export interface TranscriptUsage {
  /** `claude:<message.id>`, else `claude:<requestId>`, else `claude:<line uuid>`: stable across readers, for dedup by the caller. */
  key: string;
  model: string;
  /** All input, cache reads and writes included, like OpenAI's `prompt_tokens`. */
  inputTokens: number;
  /** Cache reads (part of `inputTokens`). */
  cachedInputTokens: number;
  /** Cache writes (part of `inputTokens`); priced above plain input. */
  cacheCreationInputTokens: number;
  /** The cache-write split by lifetime, when the transcript gives it (1h writes cost more than 5m). */
  cacheCreation?: { ephemeral5mInputTokens: number; ephemeral1hInputTokens: number };
  outputTokens: number;
  sessionId?: string;
  /** Present only for sub-agent (sidechain) requests. */
  subagent?: true;
  agentId?: string;
  /** ISO time of the message's last line read. */
  timestamp?: string;
}

interface TokenUsage {
  input: number;
  cacheRead: number;
  cacheCreation: number;
  output: number;
  split?: { ephemeral5mInputTokens: number; ephemeral1hInputTokens: number };
}

/** A message whose lines were seen but which is not known to be complete yet. */
interface PendingMessage {
  key: string;
  /** Messages on one chain are sequential, so a new id there completes the previous one; null: never superseded. */
  chain: string | null;
  model: string;
  /** The latest line's usage (input and cache fields repeat on every line). */
  usage: TokenUsage;
  /** Largest `output_tokens` seen: the best count when the final line never comes. */
  maxOutput: number;
  sessionId?: string;
  subagent?: true;
  agentId?: string;
  timestamp?: string;
}

/** What `toJSON()` returns and `fromJSON()` takes: plain JSON, so a hook process can persist it. */
export interface ClaudeTranscriptState {
  v: 1;
  pending: PendingMessage[];
  /** Keys already emitted, newest last, so later copies of their lines are ignored. */
  done: string[];
  corruptLines: number;
  /** The model's turn is open: see ClaudeTranscriptReader.turnOpen. */
  turnOpen?: true;
}

export interface ClaudeTranscriptOptions {
  /** Incomplete messages kept at most; beyond it the oldest is emitted as it stands. */
  maxPending?: number;
  /** Emitted keys remembered; duplicates arrive close together, so a short memory suffices. */
  maxDone?: number;
}

export const DEFAULT_MAX_PENDING = 64;
export const DEFAULT_MAX_DONE = 256;

const SYNTHETIC_MODEL = '<synthetic>';

export class ClaudeTranscriptReader {
  private readonly pending: PendingMessage[];
  private readonly done: string[];
  private readonly doneSet: Set<string>;
  private corrupt: number;
  private open: boolean;
  private readonly maxPending: number;
  private readonly maxDone: number;

  constructor(options: ClaudeTranscriptOptions = {}, state?: ClaudeTranscriptState) {
    this.maxPending = Math.max(1, Math.floor(options.maxPending ?? DEFAULT_MAX_PENDING));
    this.maxDone = Math.max(1, Math.floor(options.maxDone ?? DEFAULT_MAX_DONE));
    this.pending = state ? state.pending.map(clonePending) : [];
    this.done = state ? state.done.slice(-this.maxDone) : [];
    this.doneSet = new Set(this.done);
    this.corrupt = state ? state.corruptLines : 0;
    this.open = state?.turnOpen === true;
  }

  /**
   * Restores a reader from `toJSON()` output. The state comes from a file another process wrote, so a
   * value that is not a valid state gives a fresh reader instead of an exception: losing pending
   * messages costs at most their best output count, while a throw would stop all charging.
   */
  static fromJSON(json: unknown, options: ClaudeTranscriptOptions = {}): ClaudeTranscriptReader {
    return new ClaudeTranscriptReader(options, parseState(json));
  }

  /** Lines that were not JSON objects or not usable assistant lines, since the state began. */
  get corruptLines(): number {
    return this.corrupt;
  }

  /**
   * Whether the lines read leave the session's model turn open: a user line (a prompt, a tool's
   * result) came after the last answer that ended a turn, so an answer is still to be written.
   */
  get turnOpen(): boolean {
    return this.open;
  }

  /** The records of the messages these lines complete, in the order they complete. Never throws. */
  read(text: string): TranscriptUsage[] {
    const out: TranscriptUsage[] = [];
    // A state saved under a larger bound is brought within this one, its oldest messages emitted.
    this.evictPending(out);
    for (const raw of String(text).split('\n')) {
      const line = raw.trim();
      if (line) this.readLine(line, out);
    }
    return out;
  }

  /** Emits every incomplete message as it stands: call it when the session has ended. */
  flush(): TranscriptUsage[] {
    const out: TranscriptUsage[] = [];
    while (this.pending.length > 0) this.complete(this.pending[0]!, false, out);
    return out;
  }

  toJSON(): ClaudeTranscriptState {
    return { v: 1, pending: this.pending.map(clonePending), done: [...this.done], corruptLines: this.corrupt, ...(this.open ? { turnOpen: true as const } : {}) };
  }

  private readLine(line: string, out: TranscriptUsage[]): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.corrupt++;
      return;
    }
    if (!isObject(value)) {
      this.corrupt++;
      return;
    }
    if (value.isSidechain !== true && value.type === 'user') this.open = true;
    // user, system, summary, progress, file-history-snapshot… carry no usage of their own.
    if (value.type !== 'assistant') return;
    if (value.isSidechain !== true && endsTurn(value.message)) this.open = false;
    const parsed = parseAssistant(value);
    if (!parsed) {
      this.corrupt++;
      return;
    }
    if (parsed.model === SYNTHETIC_MODEL || this.doneSet.has(parsed.key)) return;

    if (parsed.chain !== null) {
      for (const p of this.pending.filter((m) => m.chain === parsed.chain && m.key !== parsed.key)) this.complete(p, false, out);
    }
    let msg = this.pending.find((m) => m.key === parsed.key);
    if (!msg) {
      msg = { key: parsed.key, chain: parsed.chain, model: parsed.model, usage: parsed.usage, maxOutput: 0 };
      this.pending.push(msg);
    }
    msg.model = parsed.model;
    msg.usage = parsed.usage;
    msg.maxOutput = Math.max(msg.maxOutput, parsed.usage.output);
    if (parsed.sessionId !== undefined) msg.sessionId = parsed.sessionId;
    if (parsed.subagent) msg.subagent = true;
    if (parsed.agentId !== undefined) msg.agentId = parsed.agentId;
    if (parsed.timestamp !== undefined) msg.timestamp = parsed.timestamp;

    if (parsed.final) this.complete(msg, true, out);
    else this.evictPending(out);
  }

  /** Emits `msg` and forgets it; `final`: its last line carried `stop_reason`, so its output count is exact. */
  private complete(msg: PendingMessage, final: boolean, out: TranscriptUsage[]): void {
    const i = this.pending.indexOf(msg);
    if (i >= 0) this.pending.splice(i, 1);
    this.done.push(msg.key);
    this.doneSet.add(msg.key);
    while (this.done.length > this.maxDone) this.doneSet.delete(this.done.shift()!);
    out.push(toRecord(msg, final ? msg.usage.output : msg.maxOutput));
  }

  /** Keeps the state bounded when final lines never come on chains that cannot be superseded. */
  private evictPending(out: TranscriptUsage[]): void {
    while (this.pending.length > this.maxPending) this.complete(this.pending[0]!, false, out);
  }
}

/** An answer after which the model waits for the user: any stop but a tool call's, or Claude Code's own message. */
function endsTurn(message: unknown): boolean {
  if (!isObject(message)) return false;
  return message.model === SYNTHETIC_MODEL || (nonEmpty(message.stop_reason) && message.stop_reason !== 'tool_use');
}

interface ParsedLine {
  key: string;
  chain: string | null;
  model: string;
  usage: TokenUsage;
  final: boolean;
  sessionId?: string;
  subagent: boolean;
  agentId?: string;
  timestamp?: string;
}

/** The usage facts of one assistant line, or undefined when it lacks what a record needs. */
function parseAssistant(line: Record<string, unknown>): ParsedLine | undefined {
  const message = line.message;
  if (!isObject(message) || !isObject(message.usage) || !nonEmpty(message.model)) return undefined;
  const id = nonEmpty(message.id) ? message.id : nonEmpty(line.requestId) ? line.requestId : nonEmpty(line.uuid) ? line.uuid : undefined;
  if (id === undefined) return undefined;
  const u = message.usage;
  const usage: TokenUsage = {
    input: count(u.input_tokens),
    cacheRead: count(u.cache_read_input_tokens),
    cacheCreation: count(u.cache_creation_input_tokens),
    output: count(u.output_tokens),
  };
  if (isObject(u.cache_creation)) {
    usage.split = {
      ephemeral5mInputTokens: count(u.cache_creation.ephemeral_5m_input_tokens),
      ephemeral1hInputTokens: count(u.cache_creation.ephemeral_1h_input_tokens),
    };
  }
  const subagent = line.isSidechain === true;
  const agentId = nonEmpty(line.agentId) ? line.agentId : undefined;
  // Parallel sub-agents written into one file without an agentId cannot be told apart, so their
  // messages are never superseded by each other's lines; they wait for stop_reason or flush().
  const chain = !subagent ? 'main' : agentId !== undefined ? `agent:${agentId}` : null;
  return {
    key: `claude:${id}`,
    chain,
    model: message.model,
    usage,
    // `null` while streaming; any non-empty reason (end_turn, tool_use, max_tokens…) ends the message.
    final: nonEmpty(message.stop_reason),
    ...(nonEmpty(line.sessionId) ? { sessionId: line.sessionId } : {}),
    subagent,
    ...(agentId !== undefined ? { agentId } : {}),
    ...(nonEmpty(line.timestamp) ? { timestamp: line.timestamp } : {}),
  };
}

function toRecord(msg: PendingMessage, outputTokens: number): TranscriptUsage {
  const u = msg.usage;
  return {
    key: msg.key,
    model: msg.model,
    inputTokens: u.input + u.cacheRead + u.cacheCreation,
    cachedInputTokens: u.cacheRead,
    cacheCreationInputTokens: u.cacheCreation,
    ...(u.split ? { cacheCreation: { ...u.split } } : {}),
    outputTokens,
    ...(msg.sessionId !== undefined ? { sessionId: msg.sessionId } : {}),
    ...(msg.subagent ? { subagent: true as const } : {}),
    ...(msg.agentId !== undefined ? { agentId: msg.agentId } : {}),
    ...(msg.timestamp !== undefined ? { timestamp: msg.timestamp } : {}),
  };
}

function clonePending(p: PendingMessage): PendingMessage {
  return { ...p, usage: { ...p.usage, ...(p.usage.split ? { split: { ...p.usage.split } } : {}) } };
}

/** A token count from untrusted JSON: a non-negative whole number, anything else 0. */
function count(n: unknown): number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.round(n) : 0;
}

function nonEmpty(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0;
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}

function optionalString(v: unknown): boolean {
  return v === undefined || nonEmpty(v);
}

function parseUsage(v: unknown): TokenUsage | undefined {
  if (!isObject(v) || !isCount(v.input) || !isCount(v.cacheRead) || !isCount(v.cacheCreation) || !isCount(v.output)) return undefined;
  const usage: TokenUsage = { input: v.input, cacheRead: v.cacheRead, cacheCreation: v.cacheCreation, output: v.output };
  if (v.split !== undefined) {
    const s = v.split;
    if (!isObject(s) || !isCount(s.ephemeral5mInputTokens) || !isCount(s.ephemeral1hInputTokens)) return undefined;
    usage.split = { ephemeral5mInputTokens: s.ephemeral5mInputTokens, ephemeral1hInputTokens: s.ephemeral1hInputTokens };
  }
  return usage;
}

function parsePending(v: unknown): PendingMessage | undefined {
  if (!isObject(v) || !nonEmpty(v.key) || !nonEmpty(v.model) || !isCount(v.maxOutput)) return undefined;
  if (!(v.chain === null || nonEmpty(v.chain))) return undefined;
  if (!optionalString(v.sessionId) || !optionalString(v.agentId) || !optionalString(v.timestamp)) return undefined;
  if (!(v.subagent === undefined || v.subagent === true)) return undefined;
  const usage = parseUsage(v.usage);
  if (!usage) return undefined;
  return {
    key: v.key, chain: v.chain, model: v.model, usage, maxOutput: v.maxOutput,
    ...(v.sessionId !== undefined ? { sessionId: v.sessionId as string } : {}),
    ...(v.subagent === true ? { subagent: true as const } : {}),
    ...(v.agentId !== undefined ? { agentId: v.agentId as string } : {}),
    ...(v.timestamp !== undefined ? { timestamp: v.timestamp as string } : {}),
  };
}

/** A state exactly as `toJSON()` writes it, or undefined. */
function parseState(v: unknown): ClaudeTranscriptState | undefined {
  if (!isObject(v) || v.v !== 1 || !Array.isArray(v.pending) || !Array.isArray(v.done) || !isCount(v.corruptLines)) return undefined;
  if (!v.done.every(nonEmpty) || !(v.turnOpen === undefined || v.turnOpen === true)) return undefined;
  const pending: PendingMessage[] = [];
  for (const p of v.pending) {
    const parsed = parsePending(p);
    if (!parsed) return undefined;
    pending.push(parsed);
  }
  return { v: 1, pending, done: v.done, corruptLines: v.corruptLines, ...(v.turnOpen ? { turnOpen: true as const } : {}) };
}
