/**
 * One trial's agent work, in sessions: the headless loop runs until it stops; a model failure ends a
 * session part-way (the interruption a real run meets), and the trial goes on in a fresh session, up
 * to `resumes` times. With the handoff on, each round writes the progress handoff and a resumed
 * session starts from it (each claim checked against the worktree), so it need not redo its edits;
 * with it off, a resumed session knows only the task.
 */
import { writeHandoff } from '../workflow/handoff/handoff';
import { resumeHandoff } from '../workflow/handoff/resume';
import { domainPacksBlock } from '../workflow/packs/inject';
import { personaText } from '../turn/persona';
import { runAgentLoop, type AgentLoopInput, type LoopStop, type LoopToolCall } from '../agent/loop';
import type { ChatMessage } from '../models/providers/types';

export const TRIAL_SYSTEM_PROMPT = [
  'You are an agent working alone in a clean git worktree of a project, under a role\'s rules and a budget.',
  'Use the tools to do the task. When you are finished, answer without calling a tool: the harness then runs the acceptance checks itself.',
].join(' ');

/** The agent loop's options (declared once, agent/engine.ts), a trial giving every session its time and token limit. */
export interface TrialSessionsInput extends Pick<AgentLoopInput, 'harness' | 'model' | 'maxToolRounds' | 'signal' | 'onToolCall'> {
  prompt: string;
  handoff: boolean;
  /** The condition's packs, their context put before the task as @alfred puts a chosen pack's. */
  packs?: ReadonlyArray<{ name: string; context: string }>;
  /** Alfred's persona opens every session, as it opens @alfred's. */
  persona?: boolean;
  /** Epoch ms at which the trial's time is up. */
  deadline: number;
  tokenLimit: number;
  /** Fresh sessions allowed after a model failure. */
  resumes: number;
}

export interface TrialSessionsResult {
  stopped: LoopStop;
  error?: Error;
  toolCalls: LoopToolCall[];
  tokens: number;
  costUsd: number;
  sessions: number;
  /** Resumed sessions that were given a handoff. */
  resumedFromHandoff: number;
}

export async function runTrialSessions(input: TrialSessionsInput): Promise<TrialSessionsResult> {
  const out: TrialSessionsResult = { stopped: 'done', toolCalls: [], tokens: 0, costUsd: 0, sessions: 0, resumedFromHandoff: 0 };
  const nextStep = `Continue the task where the last session stopped: ${input.prompt}`;
  const packs = input.packs ?? [];
  const configuration = { pack: packs.length ? packs.map((p) => p.name).join('+') : 'off', persona: input.persona === true, handoff: input.handoff };
  const persona = input.persona ? personaText('alfred') : undefined;
  for (;;) {
    out.sessions++;
    let prompt = input.prompt;
    if (input.handoff && out.sessions > 1) {
      const resumed = await resumeHandoff(input.harness);
      if (resumed) {
        prompt = `${resumed.text}\n\nThe task: ${input.prompt}`;
        out.resumedFromHandoff++;
      }
    }
    if (packs.length) prompt = `${domainPacksBlock(packs)}\n\n${prompt}`;
    const messages: ChatMessage[] = [
      { role: 'system', parts: [{ type: 'text', text: TRIAL_SYSTEM_PROMPT }] },
      ...(persona ? [{ role: 'user' as const, parts: [{ type: 'text' as const, text: persona }] }] : []),
      { role: 'user', parts: [{ type: 'text', text: prompt }] },
    ];
    const result = await runAgentLoop({
      harness: input.harness, model: input.model, messages, maxToolRounds: input.maxToolRounds, deadline: input.deadline,
      tokenLimit: input.tokenLimit, spentTokens: out.tokens, configuration, source: 'trial',
      ...(input.signal ? { signal: input.signal } : {}),
      ...(input.onToolCall ? { onToolCall: input.onToolCall } : {}),
      ...(input.handoff ? { onRound: async () => { await writeHandoff(input.harness, { nextStep, by: 'trial' }); } } : {}),
    });
    out.toolCalls.push(...result.toolCalls);
    out.tokens += result.usage.inputTokens + result.usage.outputTokens;
    out.costUsd += result.usage.costUsd;
    out.stopped = result.stopped;
    if (result.error) out.error = result.error;
    else delete out.error;
    if (result.stopped !== 'error' || out.sessions > input.resumes) return out;
  }
}

/** Tool calls whose name and canonical input equal an earlier call's in the same trial. */
export function duplicatedActions(calls: readonly Pick<LoopToolCall, 'fingerprint'>[]): number {
  const seen = new Set<string>();
  let dup = 0;
  for (const c of calls) {
    if (seen.has(c.fingerprint)) dup++;
    else seen.add(c.fingerprint);
  }
  return dup;
}
