/**
 * Completion records: the durable proof of each "done" decision, one JSON object a line in
 * `<stateDir>/completions.jsonl` (outside the workspace, where agents' tools cannot write).
 * Appended under the state lock; corrupt lines are skipped and reported, never fatal.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CorruptLine } from '../events/types';
import { withLock } from '../state/lock';
import { appendJsonLines } from '../state/jsonl';
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
  const file = completionsPath(stateDir);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { records: [], corrupt: [] };
  }
  const records: CompletionRecord[] = [];
  const corrupt: CorruptLine[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    try {
      const value = JSON.parse(raw) as Partial<CompletionRecord>;
      if (!value || typeof value !== 'object' || typeof value.id !== 'string' || typeof value.accepted !== 'boolean' || !Array.isArray(value.checks) || !value.snapshot) {
        corrupt.push({ file, line: i + 1, message: 'not a completion record' });
      } else {
        records.push(value as CompletionRecord);
      }
    } catch (err) {
      corrupt.push({ file, line: i + 1, message: `not valid JSON: ${(err as Error).message}` });
    }
  });
  records.reverse();
  return { records: limit === undefined ? records : records.slice(0, limit), corrupt };
}
