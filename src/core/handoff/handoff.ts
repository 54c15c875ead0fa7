/**
 * Progress handoff (DESIGN.md: Tool contracts, operations, handoff, traces): what the next session
 * needs to pick the work up — branch, HEAD, changed files, the last command and its exit code,
 * pending operations, the next step. Kept in `<stateDir>/handoffs.jsonl`, newest last.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { changedFiles, gitState } from '../completion/git';
import type { Actor } from '../actor';
import { describeOperation, lastCommand, openOperations } from '../operations/lifecycle';
import { withLock } from '../state/lock';

export const HANDOFFS_FILE = 'handoffs.jsonl';
const MAX_FILES = 200;

export interface Handoff {
  version: 1;
  id: string;
  ts: string;
  /** Who wrote it: `user`, `agent`, `chat`, … */
  by: string;
  role: string;
  session: string | null;
  /** undefined: no git (branch and HEAD cannot be claimed). */
  branch?: string;
  head?: string;
  git: boolean;
  changedFiles: string[];
  lastCommand?: { operation: string; command: string; state: string; exitCode: number | null; at: string };
  pendingOperations: Array<{ id: string; state: string; summary: string }>;
  nextStep: string;
}

/** What handoffs use of the harness: the workspace and state folders, who acts now. */
export interface HandoffHost {
  readonly workspaceFolder: string;
  readonly stateDir: string;
  actor(): Actor;
}

export function handoffsPath(stateDir: string): string {
  return path.join(stateDir, HANDOFFS_FILE);
}

/** Records the workspace's state now with the given next step, and returns it. */
export async function writeHandoff(harness: HandoffHost, input: { nextStep: string; by: string }): Promise<Handoff> {
  const nextStep = input.nextStep.trim();
  if (nextStep === '') throw new Error('A handoff needs a next step: say what the next session should do first.');
  const git = await gitState(harness.workspaceFolder);
  const changed = git ? (await changedFiles(harness.workspaceFolder, git)) ?? [] : [];
  const last = lastCommand(harness.stateDir);
  const handoff: Handoff = {
    version: 1, id: randomUUID(), ts: new Date().toISOString(), by: input.by,
    ...harness.actor(),
    git: git !== undefined, ...(git?.branch ? { branch: git.branch } : {}), ...(git?.head ? { head: git.head } : {}),
    changedFiles: changed.slice(0, MAX_FILES),
    ...(last ? {
      lastCommand: {
        operation: last.id, command: typeof last.args.command === 'string' ? last.args.command : describeOperation(last),
        state: last.state, exitCode: last.exitCode ?? null, at: last.updatedAt,
      },
    } : {}),
    pendingOperations: openOperations(harness.stateDir).map((o) => ({ id: o.id, state: o.state, summary: describeOperation(o) })),
    nextStep,
  };
  await withLock(harness.stateDir, () => fs.appendFileSync(handoffsPath(harness.stateDir), JSON.stringify(handoff) + '\n', { mode: 0o600 }));
  return handoff;
}

/** The newest handoff, or undefined; corrupt lines are skipped (and counted). */
export function latestHandoff(stateDir: string): { handoff?: Handoff; corrupt: number } {
  let text: string;
  try {
    text = fs.readFileSync(handoffsPath(stateDir), 'utf8');
  } catch {
    return { corrupt: 0 };
  }
  let corrupt = 0;
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  for (let i = lines.length - 1; i >= 0; i--) {
    try {
      const h = JSON.parse(lines[i] as string) as Handoff;
      if (h && h.version === 1 && typeof h.nextStep === 'string' && Array.isArray(h.changedFiles)) return { handoff: h, corrupt };
      corrupt++;
    } catch {
      corrupt++;
    }
  }
  return { corrupt };
}
