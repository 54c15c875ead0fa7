/**
 * Plays `@alfred` conversations inside the extension host: the real handler, real tools, and the
 * scripted language model of test/fixtures/scripted-model (loaded as a second development extension).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AlfredTurnMetadata } from '../../src/vscode/chat/history';
import { alfred } from './helpers';

export interface RecordedPart { type: string; value?: string; callId?: string; name?: string; input?: unknown; content?: string[] }
export interface RecordedRequest {
  model: string;
  messages: Array<{ role: 'user' | 'assistant'; parts: RecordedPart[] }>;
  tools: string[];
  cancelled: boolean;
}

export interface Step {
  text?: string | string[];
  chunkDelayMs?: number;
  toolCalls?: Array<{ name: string; input: object; callId?: string }>;
  error?: { kind: 'lm' | 'transport'; code?: string; message: string };
  hang?: boolean;
  usage?: { inputTokens: number; outputTokens: number };
  /** Sent as a data part of mime type `usage` (OpenAI's usage object), as Copilot reads it from an extension's model. */
  copilotUsage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number; prompt_tokens_details?: { cached_tokens: number } };
}

export const script = (steps: Step[], modelId?: string): Thenable<number> => vscode.commands.executeCommand('scriptedModel.script', steps, modelId);
export const requests = (): Thenable<RecordedRequest[]> => vscode.commands.executeCommand('scriptedModel.requests');
export const resetModel = (): Thenable<void> => vscode.commands.executeCommand('scriptedModel.reset');

export async function scriptedModel(id = 'scripted-a'): Promise<vscode.LanguageModelChat> {
  let found: vscode.LanguageModelChat | undefined;
  const end = Date.now() + 20_000;
  while (!found && Date.now() < end) {
    found = (await vscode.lm.selectChatModels({ vendor: 'scripted', id }))[0];
    if (!found) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(found, `the scripted model ${id} is not available`);
  return found;
}

/** A response stream that keeps everything written to it. */
export class RecordingStream {
  readonly markdown: string[] = [];
  readonly progress: string[] = [];
  readonly stream: vscode.ChatResponseStream;

  constructor() {
    const md = (v: string | vscode.MarkdownString) => this.markdown.push(typeof v === 'string' ? v : v.value);
    this.stream = new Proxy({}, {
      get: (_t, prop) => {
        if (prop === 'markdown') return md;
        if (prop === 'progress') return (v: string) => this.progress.push(v);
        return () => undefined;
      },
    }) as vscode.ChatResponseStream;
  }

  get text(): string {
    return this.markdown.join('');
  }
}

export interface Turn {
  prompt: string;
  command?: string;
  result: vscode.ChatResult;
}

/** The chat history VS Code would pass: request and response turns (read by duck typing). */
export function historyOf(turns: readonly Turn[]): Array<vscode.ChatRequestTurn | vscode.ChatResponseTurn> {
  return turns.flatMap((t) => [
    { prompt: t.prompt, command: t.command, participant: 'alfred.agent', references: [], toolReferences: [] } as unknown as vscode.ChatRequestTurn,
    { response: [], result: t.result, participant: 'alfred.agent', command: t.command } as unknown as vscode.ChatResponseTurn,
  ]);
}

export interface Asked {
  result: vscode.ChatResult;
  meta: AlfredTurnMetadata;
  out: RecordingStream;
  turn: Turn;
}

/** Sends one request to `@alfred` as the Chat view would. */
export async function ask(prompt: string, opts: { command?: string; history?: readonly Turn[]; model?: vscode.LanguageModelChat; token?: vscode.CancellationToken; out?: RecordingStream } = {}): Promise<Asked> {
  const api = await alfred();
  const out = opts.out ?? new RecordingStream();
  const model = opts.model ?? await scriptedModel();
  const request = {
    prompt, command: opts.command, references: [], toolReferences: [], toolInvocationToken: undefined, model,
    id: `test-${Date.now()}`, attempt: 0, enableCommandDetection: false, isParticipantDetected: false,
  } as unknown as vscode.ChatRequest;
  const context = { history: historyOf(opts.history ?? []) } as vscode.ChatContext;
  const result = (await api.chat(request, context, out.stream, opts.token ?? new vscode.CancellationTokenSource().token)) ?? {};
  return { result, meta: result.metadata as AlfredTurnMetadata, out, turn: { prompt, ...(opts.command ? { command: opts.command } : {}), result } };
}

export async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('alfred').update(key, value, vscode.ConfigurationTarget.Workspace);
}

/** A setting only the user may set (machine scope: a workspace's value is ignored). */
export async function setUserSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('alfred').update(key, value, vscode.ConfigurationTarget.Global);
}

/** Text of every part of a recorded message. */
export function messageText(m: RecordedRequest['messages'][number]): string {
  return m.parts.map((p) => p.value ?? (p.content ?? []).join('') ?? '').join('');
}
