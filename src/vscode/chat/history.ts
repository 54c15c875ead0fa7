import * as vscode from 'vscode';
import type { AgentConfiguration } from '../../core/agent/charge';

/**
 * Tool-call rounds live in each response's ChatResult.metadata, and the next turn rebuilds the
 * conversation from `context.history`, so the model sees its earlier tool calls and their results.
 */

export interface StoredToolCall {
  callId: string;
  name: string;
  input: object;
}

export interface StoredToolResult {
  callId: string;
  text: string;
}

/** One model response: its text, and the tool calls it made with their results (paired by callId). */
export interface StoredRound {
  text: string;
  calls: StoredToolCall[];
  results: StoredToolResult[];
}

/** `refused`: the model declined (a safety or content refusal its provider reported): shown, and no failure for failover. */
export type StopReason = 'done' | 'cancelled' | 'budget' | 'rounds' | 'error' | 'refused';

export interface AlfredTurnMetadata {
  alfred: 1;
  rounds: StoredRound[];
  packs: string[];
  packReason?: string;
  /** The persona this chat session opened with (only on its first turn). */
  persona?: string;
  model?: { id: string; vendor: string; family: string; name: string };
  /** The pack, persona and handoff its requests were charged with (their fingerprint's), for `/done`'s record. */
  configuration?: AgentConfiguration;
  profile?: string;
  stopped: StopReason;
}

/** Tool results are kept whole up to this size; longer ones are cut, and say so. */
const MAX_STORED_RESULT = 20_000;

export function storedResult(callId: string, text: string): StoredToolResult {
  return { callId, text: text.length > MAX_STORED_RESULT ? `${text.slice(0, MAX_STORED_RESULT)}\n… [${text.length - MAX_STORED_RESULT} more characters not kept in the chat history]` : text };
}

export function isAlfredMetadata(m: unknown): m is AlfredTurnMetadata {
  return typeof m === 'object' && m !== null && (m as { alfred?: unknown }).alfred === 1 && Array.isArray((m as { rounds?: unknown }).rounds);
}

type Turn = vscode.ChatRequestTurn | vscode.ChatResponseTurn;
const isRequest = (t: Turn): t is vscode.ChatRequestTurn => typeof (t as vscode.ChatRequestTurn).prompt === 'string';

/** What each `@alfred` answer of the session recorded of itself, oldest first (slash commands' answers left out). */
export function alfredTurns(history: readonly Turn[]): AlfredTurnMetadata[] {
  return history.flatMap((t) => (!isRequest(t) && isAlfredMetadata(t.result?.metadata) ? [t.result.metadata] : []));
}

/** The messages of one stored round: the assistant's text and calls, then the user's tool results. */
export function roundMessages(round: StoredRound): vscode.LanguageModelChatMessage[] {
  const parts: Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart> = [];
  if (round.text) parts.push(new vscode.LanguageModelTextPart(round.text));
  // A call without its result (a cancelled turn) would be rejected by most models: keep complete pairs only.
  const answered = round.calls.filter((c) => round.results.some((r) => r.callId === c.callId));
  for (const c of answered) parts.push(new vscode.LanguageModelToolCallPart(c.callId, c.name, c.input));
  const out: vscode.LanguageModelChatMessage[] = [];
  if (parts.length) out.push(vscode.LanguageModelChatMessage.Assistant(parts));
  if (answered.length) {
    out.push(vscode.LanguageModelChatMessage.User(answered.map((c) => new vscode.LanguageModelToolResultPart(c.callId,
      [new vscode.LanguageModelTextPart(round.results.find((r) => r.callId === c.callId)!.text)]))));
  }
  return out;
}

export interface RebuiltHistory {
  messages: vscode.LanguageModelChatMessage[];
  /** The persona the session opened with, if any. */
  persona?: string;
  /** True when no earlier `@alfred` answer exists: this turn opens the chat session. */
  opening: boolean;
  /** Packs of the latest answer, for the radar's stickiness. */
  lastPacks?: string[];
}

/**
 * A turn the model never answered: `@alfred` found no model or the request failed before any text
 * (or VS Code itself refused, "Language model unavailable"). It is left out, its prompt included:
 * the user asks again, and the model must not read the same words twice.
 */
function unanswered(turn: vscode.ChatResponseTurn): boolean {
  const meta = turn.result?.metadata;
  if (isAlfredMetadata(meta)) return meta.stopped === 'error' && !meta.rounds.some((r) => r.text || r.calls.length);
  return Boolean(turn.result?.errorDetails) && !responseText(turn);
}

const responseText = (turn: vscode.ChatResponseTurn): string => turn.response.map((p) => (p instanceof vscode.ChatResponseMarkdownPart ? p.value.value : '')).join('');

/** Rebuilds the conversation; slash-command turns (`/budget`, `/role`, …) and unanswered turns are left out. */
export function rebuildHistory(history: readonly Turn[]): RebuiltHistory {
  const messages: vscode.LanguageModelChatMessage[] = [];
  let persona: string | undefined;
  let lastPacks: string[] | undefined;
  let opening = true;
  // A request's prompt waits for its answer: it goes in only when the answer does.
  let pending: string | undefined;
  for (const turn of history) {
    if (isRequest(turn)) {
      pending = turn.command ? undefined : turn.prompt;
      continue;
    }
    const prompt = pending;
    pending = undefined;
    if (prompt === undefined || turn.command || unanswered(turn)) continue;
    messages.push(vscode.LanguageModelChatMessage.User(prompt));
    opening = false;
    const meta = turn.result?.metadata;
    if (isAlfredMetadata(meta)) {
      if (meta.persona && persona === undefined) persona = meta.persona;
      lastPacks = meta.packs;
      for (const round of meta.rounds) messages.push(...roundMessages(round));
    } else {
      const text = responseText(turn);
      if (text) messages.push(vscode.LanguageModelChatMessage.Assistant(text));
    }
  }
  return { messages, opening, ...(persona ? { persona } : {}), ...(lastPacks ? { lastPacks } : {}) };
}
