/**
 * Completion records: the durable proof of each "done" decision, one JSON object a line in
 * `<stateDir>/completions.jsonl` (outside the workspace, where agents' tools cannot write).
 * Appended under the state lock; corrupt lines are skipped and reported, never fatal.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { appendJsonLines, readJsonLines, type CorruptLine } from '../../base/fs/jsonLines';
import type { HarnessFingerprint } from '../../models/fingerprint/fingerprint';
import { withLock } from '../../base/state/lock';
import type { CheckResult } from './runner';
import type { Snapshot } from './snapshot';

export const COMPLETIONS_FILE = 'completions.jsonl';

export interface EnvironmentVersions {
  /** VS Code's version, when verified from the editor. */
  vscode?: string;
  node: string;
  os: string;
  alfred: string;
}

export interface CompletionRecord {
  version: 1;
  id: string;
  ts: string;
  workspace: string;
  accepted: boolean;
  /** One sentence: why it was accepted or not. */
  reason: string;
  /** How the verdict was reached: every required check's exit code was 0. */
  evaluator: 'exit-codes';
  role: string;
  /** The harness session (budget window) it belongs to. */
  session: string | null;
  /** The agent's own session id (hooks, chat), when the caller knows it. */
  agentSession?: string;
  /** Who asked: `command`, `cli`, `chat`, `hook:Stop`, … */
  trigger: string;
  snapshot: {
    before: Snapshot;
    after: Snapshot;
    /** The workspace was the same snapshot before and after the checks. */
    stable: boolean;
  };
  checks: CheckResult[];
  environment: EnvironmentVersions;
  durationMs: number;
  /** The harness configuration that decided; absent in records written before it existed. */
  fingerprint?: HarnessFingerprint;
}

export function environmentVersions(alfred: string, vscode?: string): EnvironmentVersions {
  return { ...(vscode ? { vscode } : {}), node: process.version, os: `${os.type()} ${os.release()} ${os.arch()}`, alfred };
}

export function completionsPath(stateDir: string): string {
  return path.join(stateDir, COMPLETIONS_FILE);
}

export async function appendCompletion(stateDir: string, record: CompletionRecord): Promise<void> {
  await withLock(stateDir, () => {
    appendJsonLines(completionsPath(stateDir), [record]);
  });
}

export interface CompletionsRead {
  /** Newest first. */
  records: CompletionRecord[];
  corrupt: CorruptLine[];
}

/** The records, newest first (at most `limit`); readers take no lock. */
export function readCompletions(stateDir: string, limit?: number): CompletionsRead {
  const { records, corrupt } = readJsonLines(completionsPath(stateDir), (v) => {
    const value = v as Partial<CompletionRecord> | null;
    const ok = value && typeof value === 'object' && typeof value.id === 'string' && typeof value.accepted === 'boolean' && Array.isArray(value.checks) && value.snapshot;
    return ok ? (value as CompletionRecord) : 'not a completion record';
  });
  records.reverse();
  return { records: limit === undefined ? records : records.slice(0, limit), corrupt };
}
